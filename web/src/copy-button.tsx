/** "Copy party ID": the clipboard write, with its refusal (no permission, insecure page) shown, not swallowed. */
import { Alert } from "./alert.js";
import { useAction } from "./action.js";

export function CopyButton({ text }: { text: string }) {
  const { run, error } = useAction();
  const copy = () =>
    run(async () => {
      if (!navigator.clipboard) throw new Error("This browser offers no clipboard here; select the party ID and copy it by hand.");
      await navigator.clipboard.writeText(text);
    });
  return (
    <>
      <button onClick={copy}>Copy party ID</button>
      <Alert text={error} />
    </>
  );
}
