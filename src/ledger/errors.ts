/**
 * The one error taxonomy of the ledger: Canton's error code ids and error categories. The API
 * maps it to gRPC status (`api/services/ledger/connect-error.ts`), `JsCantonError` (`api/http`)
 * and completions, each with one exhaustive function, so a new category cannot ship without a
 * decided mapping.
 */

/** Canton `ErrorCategory.asInt`. */
export const Category = {
  TransientServerFailure: 1,
  ContentionOnSharedResources: 2,
  DeadlineExceededRequestStateUnknown: 3,
  SystemInternalAssumptionViolated: 4,
  SecurityAlert: 5,
  AuthInterceptorInvalidAuthenticationCredentials: 6,
  InsufficientPermission: 7,
  InvalidIndependentOfSystemState: 8,
  InvalidGivenCurrentSystemStateOther: 9,
  InvalidGivenCurrentSystemStateResourceExists: 10,
  InvalidGivenCurrentSystemStateResourceMissing: 11,
  InvalidGivenCurrentSystemStateSeekAfterEnd: 12,
  InternalUnsupportedOperation: 14,
} as const;
export type Category = (typeof Category)[keyof typeof Category];

/** gRPC status codes (numeric, as on the wire). */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

export function grpcCodeOf(category: Category): GrpcCode {
  switch (category) {
    case Category.TransientServerFailure:
      return GrpcCode.UNAVAILABLE;
    case Category.ContentionOnSharedResources:
      return GrpcCode.ABORTED;
    case Category.DeadlineExceededRequestStateUnknown:
      return GrpcCode.DEADLINE_EXCEEDED;
    case Category.SystemInternalAssumptionViolated:
      return GrpcCode.INTERNAL;
    case Category.SecurityAlert:
    case Category.InvalidIndependentOfSystemState:
      return GrpcCode.INVALID_ARGUMENT;
    case Category.AuthInterceptorInvalidAuthenticationCredentials:
      return GrpcCode.UNAUTHENTICATED;
    case Category.InsufficientPermission:
      return GrpcCode.PERMISSION_DENIED;
    case Category.InvalidGivenCurrentSystemStateOther:
      return GrpcCode.FAILED_PRECONDITION;
    case Category.InvalidGivenCurrentSystemStateResourceExists:
      return GrpcCode.ALREADY_EXISTS;
    case Category.InvalidGivenCurrentSystemStateResourceMissing:
      return GrpcCode.NOT_FOUND;
    case Category.InvalidGivenCurrentSystemStateSeekAfterEnd:
      return GrpcCode.OUT_OF_RANGE;
    case Category.InternalUnsupportedOperation:
      return GrpcCode.UNIMPLEMENTED;
  }
}

/** Categories whose failures are safe to retry (Canton marks these with RetryInfo). */
export function isRetryable(category: Category): boolean {
  return (
    category === Category.TransientServerFailure ||
    category === Category.ContentionOnSharedResources ||
    category === Category.DeadlineExceededRequestStateUnknown
  );
}

export interface LedgerErrorInit {
  readonly code: string;
  readonly category: Category;
  readonly cause: string;
  readonly context?: Readonly<Record<string, string>>;
  readonly resources?: readonly (readonly [string, string])[];
  /** Canton's `definite_answer`: true when the command is known not to have been committed. */
  readonly definiteAnswer?: boolean;
}

export class LedgerError extends Error {
  readonly code: string;
  readonly category: Category;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly [string, string])[];
  readonly definiteAnswer: boolean | undefined;
  constructor(init: LedgerErrorInit, options?: { cause?: unknown }) {
    super(init.cause, options);
    this.name = "LedgerError";
    this.code = init.code;
    this.category = init.category;
    this.context = init.context ?? {};
    this.resources = init.resources ?? [];
    this.definiteAnswer = init.definiteAnswer;
  }
  get grpcCode(): GrpcCode {
    return grpcCodeOf(this.category);
  }
  /** Canton's status message: `CODE(category,correlation): cause`. */
  statusMessage(correlationId = ""): string {
    return `${this.code}(${this.category},${correlationId.slice(0, 8)}): ${this.message}`;
  }
}

const make =
  (code: string, category: Category) =>
  (cause: string, context?: Record<string, string>, resources?: [string, string][]) =>
    new LedgerError({ code, category, cause, context, resources });

/** Named constructors for the errors the ledger raises; the code ids are Canton's. */
export const errors = {
  invalidArgument: make("INVALID_ARGUMENT", Category.InvalidIndependentOfSystemState),
  /** Canton's RequestValidationErrors.InvalidArgument: INVALID_ARGUMENT with its fixed lead-in. */
  invalidRequest: (reason: string) =>
    make("INVALID_ARGUMENT", Category.InvalidIndependentOfSystemState)(`The submitted request has invalid arguments: ${reason}`),
  /** A Daml value (or the protobuf carrying it) nested past the limit Canton enforces. */
  valueTooDeep: (maxNesting: number) => errors.invalidRequest(`Provided value exceeds maximum nesting level of ${maxNesting}`),
  invalidField: (field: string, message: string) =>
    make("INVALID_FIELD", Category.InvalidIndependentOfSystemState)(
      `The submitted command has a field with invalid value: Invalid field ${field}: ${message}`,
      { field_name: field },
    ),
  missingField: (field: string) =>
    make("MISSING_FIELD", Category.InvalidIndependentOfSystemState)(
      `The submitted command is missing a mandatory field: ${field}`,
      { field_name: field },
    ),
  preprocessingFailed: make("COMMAND_PREPROCESSING_FAILED", Category.InvalidIndependentOfSystemState),
  templateNotFound: (id: string) =>
    make("TEMPLATES_OR_INTERFACES_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Templates or interfaces do not exist: ${id}`,
      {},
      [["TEMPLATE_ID", id]],
    ),
  packageNotFound: (packageId: string) =>
    make("PACKAGE_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Could not find package [${packageId}].`,
      {},
      [["PACKAGE", packageId]],
    ),
  contractNotFound: (cid: string) =>
    make("CONTRACT_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Contract could not be found with id ${cid}`,
      {},
      [["CONTRACT_ID", cid]],
    ),
  contractKeyNotFound: (key: string) =>
    make("CONTRACT_KEY_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Couldn't find contract with key ${key}`,
    ),
  duplicateContractKey: (key: string) =>
    make("DUPLICATE_CONTRACT_KEY", Category.InvalidGivenCurrentSystemStateResourceExists)(
      `Contract key is already in use: ${key}`,
    ),
  lockedContracts: (cids: string[]) =>
    make("LOCAL_VERDICT_LOCKED_CONTRACTS", Category.ContentionOnSharedResources)(
      `Rejected transaction is referring to locked contracts ${cids.join(", ")}`,
      {},
      cids.map((c) => ["CONTRACT_ID", c] as [string, string]),
    ),
  /** Canton: the resource is missing (NOT_FOUND), not contention; only locked contracts are ABORTED. */
  inactiveContracts: (cids: string[]) =>
    make("LOCAL_VERDICT_INACTIVE_CONTRACTS", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Rejected transaction is referring to inactive contracts ${cids.join(", ")}`,
      {},
      cids.map((c) => ["CONTRACT_ID", c] as [string, string]),
    ),
  /** A transaction that reads time, committed further from the time it was interpreted at than the tolerance. */
  ledgerTimeOutOfBound: (ledgerTime: bigint, recordTime: bigint, maxDeltaMicros: bigint) =>
    make("LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND", Category.ContentionOnSharedResources)(
      `Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=${isoOfMicros(ledgerTime)}, recordTime=${isoOfMicros(recordTime)}, maxDelta=PT${maxDeltaMicros / 1_000_000n}S`,
    ),
  /** Canton's sequencer refusal (SequencerErrors.TrafficCredit): the member lacks traffic for the request. */
  notEnoughTrafficCredit: (member: string, cost: bigint, state: { extraTrafficLimit: bigint; extraTrafficConsumed: bigint; baseTrafficRemainder: bigint }) =>
    make("SEQUENCER_NOT_ENOUGH_TRAFFIC_CREDIT", Category.InvalidGivenCurrentSystemStateOther)(
      `AboveTrafficLimit(member = ${member}, trafficCost = ${cost}, trafficState = TrafficState(extraTrafficLimit = ${state.extraTrafficLimit}, ` +
        `extraTrafficConsumed = ${state.extraTrafficConsumed}, baseTrafficRemainder = ${state.baseTrafficRemainder}))`,
      { member, trafficCost: String(cost) },
    ),
  /**
   * Splice's validator refuses its own submissions (but top-ups) once the traffic left is below
   * the reserve, with a bare ABORTED; the code id is ours, the text Splice's.
   */
  trafficBelowReserved: (balance: bigint, reserved: bigint) =>
    make("TRAFFIC_BELOW_RESERVED", Category.ContentionOnSharedResources)(`Traffic balance below reserved traffic amount (${balance} < ${reserved})`, {
      balance: String(balance),
      reserved: String(reserved),
    }),
  duplicateCommand: (changeId: string, existingOffset?: bigint) =>
    make("DUPLICATE_COMMAND", Category.InvalidGivenCurrentSystemStateResourceExists)(
      "A command with the given command id has already been successfully processed",
      existingOffset === undefined
        ? { change_id: changeId }
        : { change_id: changeId, existing_command_offset: String(existingOffset) },
    ),
  authorization: (message: string) =>
    make("DAML_AUTHORIZATION_ERROR", Category.InvalidIndependentOfSystemState)(
      `Interpretation error: Error: ${message}`,
    ),
  /** Daml's ArithmeticError escaping the transaction (Canton: UNHANDLED_EXCEPTION); nothing is committed. */
  arithmeticOverflow: (message: string) =>
    make("UNHANDLED_EXCEPTION", Category.InvalidGivenCurrentSystemStateOther)(
      `Interpretation error: Error: Unhandled Daml exception: DA.Exception.ArithmeticError:ArithmeticError{ message = "ArithmeticError while evaluating: ${message}" }`,
    ),
  interpretation: (message: string) =>
    make("DAML_INTERPRETATION_ERROR", Category.InvalidGivenCurrentSystemStateOther)(
      `Interpretation error: Error: ${message}`,
    ),
  unknownParties: (parties: string[]) =>
    make("PARTY_NOT_KNOWN_ON_LEDGER", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `Parties not known on ledger: ${parties.join(", ")}`,
    ),
  contractEventsNotFound: (contractId: string) =>
    make("CONTRACT_EVENTS_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      "Contract events not found, or not visible.",
      { contract_id: contractId },
    ),
  /** Canton 3.4 ContractService: the same answer for an unknown contract and one the parties may not see. */
  contractPayloadNotFound: (contractId: string) =>
    make("CONTRACT_PAYLOAD_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      "Contract payload not found, or not visible.",
      { contract_id: contractId },
    ),
  // Canton's PackageServiceErrors.Reading, raised when an uploaded DAR cannot be read.
  /** Not a zip at all (Canton: LfArchiveError.InvalidDar). */
  invalidDar: (why: string) =>
    make("INVALID_DAR", Category.InvalidIndependentOfSystemState)("Dar file is corrupt", { throwable: why }),
  /** A zip entry that cannot be read (bad name, bad compression). */
  invalidZipEntry: (name: string) =>
    make("INVALID_ZIP_ENTRY", Category.InvalidIndependentOfSystemState)("Dar zip file is corrupt", { name }),
  zipBomb: (why: string) =>
    make("ZIP_BOMB", Category.InvalidIndependentOfSystemState)("Dar zip file seems to be a zip bomb.", { msg: why }),
  /** A zip that is no DAR: no manifest, no Daml-LF archive, an archive that does not decode or whose hash is wrong. */
  darParseError: (reason: string) =>
    make("DAR_PARSE_ERROR", Category.InvalidIndependentOfSystemState)("Failed to parse the dar file content.", { reason }),
  updateNotFound: (what: string) =>
    make("UPDATE_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(`Update not found: ${what}`),
  /** `what`: Canton's offset type in the message, "Begin" for streams, "active_at_offset" for the ACS. */
  offsetAfterLedgerEnd: (offset: bigint, end: bigint, what = "Begin") =>
    make("OFFSET_AFTER_LEDGER_END", Category.InvalidGivenCurrentSystemStateSeekAfterEnd)(
      `${what} offset (${offset}) is after ledger end (${end})`,
    ),
  userNotFound: (id: string, operation = "getting user") =>
    make("USER_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(
      `${operation} failed for unknown user "${id}"`,
      { user_id: id },
    ),
  invalidUserUpdate: (id: string, reason: string) =>
    make("INVALID_USER_UPDATE_REQUEST", Category.InvalidIndependentOfSystemState)(`Update operation for user id '${id}' failed due to: ${reason}`, { user_id: id }),
  concurrentUserUpdate: (id: string) =>
    make("CONCURRENT_USER_UPDATE_DETECTED", Category.ContentionOnSharedResources)(
      `Update operation for user '${id}' failed due to a concurrent update to the same user`,
      { user_id: id },
    ),
  userAnnotationsTooLarge: (id: string) =>
    make("MAX_USER_ANNOTATIONS_SIZE_EXCEEDED", Category.InvalidGivenCurrentSystemStateOther)(`Maximum annotations size for user '${id}' has been exceeded`, { user_id: id }),
  userAlreadyExists: (id: string) =>
    make("USER_ALREADY_EXISTS", Category.InvalidGivenCurrentSystemStateResourceExists)(
      `creating user failed, as user "${id}" already exists`,
      { user_id: id },
    ),
  partyNotFound: (party: string, operation: string) =>
    make("PARTY_NOT_FOUND", Category.InvalidGivenCurrentSystemStateResourceMissing)(`Party: '${party}' was not found when ${operation}`, { party }),
  invalidPartyUpdate: (party: string, reason: string) =>
    make("INVALID_PARTY_DETAILS_UPDATE_REQUEST", Category.InvalidIndependentOfSystemState)(`Update operation for party '${party}' failed due to: ${reason}`, { party }),
  concurrentPartyUpdate: (party: string) =>
    make("CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED", Category.ContentionOnSharedResources)(`Update operation for party '${party}' failed due to a concurrent update to the same party`, { party }),
  partyAnnotationsTooLarge: (party: string) =>
    make("MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED", Category.InvalidGivenCurrentSystemStateOther)(`Maximum annotations size for party '${party}' has been exceeded`, { party }),
  partyAlreadyExists: (id: string) => errors.invalidRequest(`Party already exists: party ${id} is already allocated on this node`),
  unauthenticated: (why: string) =>
    make("UNAUTHENTICATED", Category.AuthInterceptorInvalidAuthenticationCredentials)(
      `The command is missing a (valid) JWT token: ${why}`,
    ),
  /** Canton's ongoing stream authorization: the token a stream was opened with has expired. */
  accessTokenExpired: (validUntil: Date, now: Date) =>
    make("ACCESS_TOKEN_EXPIRED", Category.AuthInterceptorInvalidAuthenticationCredentials)(
      `Claims were valid until ${validUntil.toISOString()}, current time is ${now.toISOString()}`,
    ),
  /** Canton's ongoing stream authorization: the user's rights changed (or it was deleted or deactivated). */
  staleStreamAuthorization: () => make("STALE_STREAM_AUTHORIZATION", Category.ContentionOnSharedResources)("Stale stream authorization. Retry quickly."),
  permissionDenied: (why: string) =>
    make("PERMISSION_DENIED", Category.InsufficientPermission)(`The provided JWT token is not sufficient to authorize the intended command: ${why}`),
  unimplemented: (what: string) =>
    make("UNSUPPORTED_OPERATION", Category.InternalUnsupportedOperation)(`The request is not supported: ${what}`),
  invalidPrescribedSynchronizer: (synchronizerId: string) =>
    make("INVALID_PRESCRIBED_SYNCHRONIZER_ID", Category.InvalidGivenCurrentSystemStateOther)(
      `The commands name synchronizer ${synchronizerId}, which is not the synchronizer this participant is connected to`,
      { synchronizer_id: synchronizerId },
    ),
  /**
   * Canton's REQUEST_TIME_OUT: the request may or may not have taken effect (a store write whose
   * confirmation timed out); not a definite answer, and worth retrying.
   */
  requestTimeOut: (cause: string, error?: unknown) =>
    new LedgerError({ code: "REQUEST_TIME_OUT", category: Category.DeadlineExceededRequestStateUnknown, cause, definiteAnswer: false }, { cause: error }),
  internal: (what: string) =>
    make("LEDGER_API_INTERNAL_ERROR", Category.SystemInternalAssumptionViolated)(`Processing the request failed due to a non-transient internal error: ${what}`),
  // Canton's topology manager errors (3.4 ids), raised when an external party's onboarding is refused.
  topologyInvalidSignature: (why: string) =>
    make("TOPOLOGY_INVALID_TOPOLOGY_TX_SIGNATURE", Category.SecurityAlert)(`Transaction signature verification failed: ${why}`),
  topologyUnauthorized: (why: string) =>
    make("TOPOLOGY_UNAUTHORIZED_TRANSACTION", Category.SecurityAlert)(`Topology transaction is not properly authorized: ${why}`),
  topologyInvalidMapping: (why: string) =>
    make("TOPOLOGY_INVALID_MAPPING", Category.InvalidIndependentOfSystemState)(`The topology transaction was rejected due to an invalid mapping: ${why}`),
  /** Canton's stream cap (`ledger-api.rate-limit.max-streams`): retryable, the streams open go on. */
  maximumNumberOfStreams: (value: number, limit: number, method: string) =>
    make("MAXIMUM_NUMBER_OF_STREAMS", Category.ContentionOnSharedResources)(
      `The number of streams in use (${value}) has reached or exceeded the limit (${limit}). Metrics are available at daml.lapi.streams.`,
      { value: String(value), limit: String(limit), fullMethodName: method },
    ),
  /** Canton's backpressure refusal: retry later. */
  answersBackpressure: (limit: number) =>
    make("PARTICIPANT_BACKPRESSURE", Category.ContentionOnSharedResources)(
      `The participant is overloaded: array answers of ${limit} bytes in all wait to be read by their clients; retry later, or use the streaming endpoint (WebSocket or gRPC)`,
    ),
  pagesBackpressure: (waitedMs: number) =>
    make("PARTICIPANT_BACKPRESSURE", Category.ContentionOnSharedResources)(
      `The participant is overloaded: the stream waited ${waitedMs} ms for room among the store pages other streams hold; retry later, or use the streaming endpoint (WebSocket or gRPC)`,
    ),
  listTooLarge: (limit: number) =>
    make("HTTP_LIST_TOO_LARGE", Category.InvalidIndependentOfSystemState)(
      `The answer exceeds the server's limit of ${limit} bytes; ask for fewer elements with the limit query parameter or use the streaming endpoint (WebSocket or gRPC)`,
    ),
  tooManyElements: (limit: number) =>
    make("HTTP_LIST_TOO_LARGE", Category.InvalidIndependentOfSystemState)(
      `The number of elements exceeds the server's limit of ${limit}; use the limit query parameter or the streaming endpoint`,
    ),
};

function isoOfMicros(micros: bigint): string {
  return new Date(Number(micros / 1000n)).toISOString();
}
