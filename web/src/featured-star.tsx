/** The featured-app star (B.2): shown when the user's party holds a FeaturedAppRight (scan proxy lookup). */
import { api, type Session } from "./api.js";
import { usePoll } from "./poll.js";

export function FeaturedStar({ session, party }: { session: Session; party: string }) {
  const right = usePoll(
    () => api<{ featured_app_right?: unknown }>(session, "GET", `/v0/scan-proxy/featured-apps/${encodeURIComponent(party)}`).then((r) => r.featured_app_right != null),
    [party],
  );
  return right.data ? (
    <span class="star" role="img" aria-label="Featured app" title="FEATURED">
      ★
    </span>
  ) : null;
}
