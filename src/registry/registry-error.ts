/**
 * A refusal of the registry's off-ledger API, with the HTTP status the OpenAPI spec gives it
 * (400 bad request, 404 not found); the HTTP layer answers `{ error: message }`.
 */
export class RegistryError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = "RegistryError";
  }
}

export const badRequest = (message: string) => new RegistryError(400, message);
export const notFound = (message: string) => new RegistryError(404, message);
