/** A failed action or load, in the page (role alert), never only in the console. */
export function Alert({ text }: { text: string | undefined }) {
  return text ? (
    <p role="alert" class="error">
      {text}
    </p>
  ) : null;
}
