/**
 * Text another party wrote (an offer's description, a transfer's reason), shown so that it can only
 * ever read as that party's words: isolated from the text around it (`<bdi>`), quoted, without the
 * bidirectional and invisible format characters that reorder or hide what follows, with runs of
 * whitespace collapsed (no fake second line) and cut to a line's length (the full text in a tooltip).
 * A sender once made an offer of 0.0000000001 CC read "↓ 1,000,000 CC", and the Accept and Reject
 * buttons swap places, with nothing but its description.
 */
const FORMAT_CONTROLS = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

export const FREE_TEXT_SHOWN = 120;

/** What is shown of `text`: no format controls, single spaces, at most FREE_TEXT_SHOWN characters. */
export function shownFreeText(text: string): string {
  const plain = text.replace(FORMAT_CONTROLS, "").replace(/\s+/gu, " ").trim();
  const chars = [...plain];
  return chars.length <= FREE_TEXT_SHOWN ? plain : `${chars.slice(0, FREE_TEXT_SHOWN).join("")}…`;
}

export function FreeText({ text, fallback }: { readonly text: string | undefined; readonly fallback: string }) {
  const shown = text ? shownFreeText(text) : "";
  if (shown === "") return <span class="caption">{fallback}</span>;
  return (
    <bdi class="free-text" dir="auto" title={text}>
      “{shown}”
    </bdi>
  );
}
