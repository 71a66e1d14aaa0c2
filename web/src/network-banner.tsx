/** A coloured banner on non-MainNet networks (B.5, Splice #922): nobody mistakes DevNet CC for real money. */
export function NetworkBanner({ isDevNet }: { isDevNet: boolean | undefined }) {
  return isDevNet ? (
    <div class="network-banner" role="note" aria-label="Network">
      DevNet: test network, CC here has no value
    </div>
  ) : null;
}
