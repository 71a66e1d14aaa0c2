/**
 * The special cases of the Canton JSON Ledger API v2 (3.4.12) encoding, as data.
 *
 * Everything not listed here follows the generic rule implemented in `canton-json.ts`:
 * proto `json_name` keys, proto3 scalars always printed, 64-bit integers as JSON numbers,
 * enums by full value name, bytes as base64, and every oneof encoded the way Canton's
 * scalapb-derived circe codecs print a scalapb oneof: a key named after the oneof
 * (lowerCamelCase) holding `{"<PascalCaseFieldName>": {"value": ...}}`, `{"Empty": {}}` when unset.
 *
 * Each entry names the component schema of `ledger-api-3.4.12.yaml` it was checked against.
 */

/** Where a oneof's variants live in the JSON object of the message that declares it. */
export type OneofPlacement =
  /** The variant key is a key of the message's own object: `{"CreateCommand": {...}}` (the message IS the wrapper). */
  | "inline"
  /** The variant object sits under one key named after the oneof: `{"deduplicationPeriod": {"DeduplicationOffset": {...}}}`. */
  | "nested";

export interface VariantStyle {
  /** JSON key of the variant. */
  name: string;
  /** `true`: `{"<name>": {"value": <field JSON>}}`; `false`: `{"<name>": <field JSON>}` (message fields only). */
  withValue: boolean;
}

export interface OneofStyle {
  placement: OneofPlacement;
  /** Variants by proto field name (snake_case, as in the .proto). */
  variants: { readonly [protoFieldName: string]: VariantStyle };
  /**
   * Name of the variant printed for an unset oneof (`{"<empty>": {}}`), when the OpenAPI lists one;
   * `undefined`: an unset oneof is omitted. Input always accepts a missing / `null` oneof, and this
   * variant when it is defined.
   */
  empty?: string;
  /** OpenAPI component schema(s) this entry was checked against (documentation only). */
  openapi: string;
}

const wv = (name: string): VariantStyle => ({ name, withValue: true });
const ko = (name: string): VariantStyle => ({ name, withValue: false });

/**
 * Oneof encodings, keyed by `<message full name>.<oneof name>`.
 * (`com.daml.ledger.api.v2.Value.sum` is not here: Daml values use the Daml-LF JSON encoding.)
 */
export const ONEOF_STYLES: { readonly [oneofFullName: string]: OneofStyle } = {
  // -- "key only" families (Canton's hand-written Js* ADTs) -------------------------------
  "com.daml.ledger.api.v2.Command.command": {
    placement: "inline",
    variants: {
      create: ko("CreateCommand"),
      exercise: ko("ExerciseCommand"),
      exercise_by_key: ko("ExerciseByKeyCommand"),
      create_and_exercise: ko("CreateAndExerciseCommand"),
    },
    openapi: "Command (oneOf CreateCommand | ExerciseCommand | ExerciseByKeyCommand | CreateAndExerciseCommand, no value wrapper, no Empty)",
  },
  "com.daml.ledger.api.v2.Event.event": {
    placement: "inline",
    variants: { created: ko("CreatedEvent"), archived: ko("ArchivedEvent"), exercised: ko("ExercisedEvent") },
    openapi: "Event (oneOf ArchivedEvent | CreatedEvent | ExercisedEvent, no value wrapper, no Empty)",
  },
  "com.daml.ledger.api.v2.GetActiveContractsResponse.contract_entry": {
    placement: "nested",
    variants: {
      active_contract: ko("JsActiveContract"),
      incomplete_unassigned: ko("JsIncompleteUnassigned"),
      incomplete_assigned: ko("JsIncompleteAssigned"),
    },
    empty: "JsEmpty",
    openapi:
      "JsGetActiveContractsResponse.contractEntry -> JsContractEntry (oneOf JsActiveContract | JsEmpty | JsIncompleteAssigned | JsIncompleteUnassigned; " +
      "JsActiveContract = {createdEvent, synchronizerId, reassignmentCounter}, no value wrapper)",
  },
  // -- mixed: one variant key-only, one with value ---------------------------------------
  "com.daml.ledger.api.v2.ReassignmentEvent.event": {
    placement: "inline",
    variants: { assigned: ko("JsAssignmentEvent"), unassigned: wv("JsUnassignedEvent") },
    openapi:
      "JsReassignmentEvent (oneOf JsAssignmentEvent = {source, target, reassignmentId, submitter, reassignmentCounter, createdEvent} | " +
      "JsUnassignedEvent = {value: UnassignedEvent}; no Empty)",
  },
  // -- "with value", message IS the wrapper ---------------------------------------------
  "com.daml.ledger.api.v2.TreeEvent.kind": {
    placement: "inline",
    variants: { created: wv("CreatedTreeEvent"), exercised: wv("ExercisedTreeEvent") },
    openapi: "TreeEvent (oneOf CreatedTreeEvent = {value: CreatedEvent} | ExercisedTreeEvent = {value: ExercisedEvent}; no Empty)",
  },
  // -- "with value", nested under the oneof key ------------------------------------------
  "com.daml.ledger.api.v2.Commands.deduplication_period": {
    placement: "nested",
    variants: { deduplication_duration: wv("DeduplicationDuration"), deduplication_offset: wv("DeduplicationOffset") },
    empty: "Empty",
    openapi: "JsCommands.deduplicationPeriod -> DeduplicationPeriod (DeduplicationDuration{value: Duration} | DeduplicationOffset{value: int64} | Empty)",
  },
  "com.daml.ledger.api.v2.Completion.deduplication_period": {
    placement: "nested",
    variants: { deduplication_offset: wv("DeduplicationOffset"), deduplication_duration: wv("DeduplicationDuration") },
    empty: "Empty",
    openapi: "Completion1.deduplicationPeriod -> DeduplicationPeriod1 (DeduplicationDuration1 | DeduplicationOffset1 | Empty3)",
  },
  "com.daml.ledger.api.v2.CompletionStreamResponse.completion_response": {
    placement: "nested",
    variants: { completion: wv("Completion"), offset_checkpoint: wv("OffsetCheckpoint") },
    empty: "Empty",
    openapi: "CompletionStreamResponse.completionResponse -> CompletionResponse (Completion{value: Completion1} | Empty | OffsetCheckpoint{value: OffsetCheckpoint1})",
  },
  "com.daml.ledger.api.v2.GetUpdatesResponse.update": {
    placement: "nested",
    variants: {
      transaction: wv("Transaction"),
      reassignment: wv("Reassignment"),
      offset_checkpoint: wv("OffsetCheckpoint"),
      topology_transaction: wv("TopologyTransaction"),
    },
    openapi: "JsGetUpdatesResponse.update -> Update (OffsetCheckpoint | Reassignment | TopologyTransaction | Transaction, each {value}; no Empty)",
  },
  "com.daml.ledger.api.v2.GetUpdateResponse.update": {
    placement: "nested",
    variants: {
      transaction: wv("Transaction"),
      reassignment: wv("Reassignment"),
      topology_transaction: wv("TopologyTransaction"),
    },
    openapi: "JsGetUpdateResponse.update -> Update (same schema as JsGetUpdatesResponse; no Empty)",
  },
  "com.daml.ledger.api.v2.GetUpdateTreesResponse.update": {
    placement: "nested",
    variants: {
      transaction_tree: wv("TransactionTree"),
      reassignment: wv("Reassignment"),
      offset_checkpoint: wv("OffsetCheckpoint"),
    },
    openapi: "JsGetUpdateTreesResponse.update -> Update1 (OffsetCheckpoint | Reassignment | TransactionTree, each {value}; no Empty)",
  },
  "com.daml.ledger.api.v2.CumulativeFilter.identifier_filter": {
    placement: "nested",
    variants: {
      wildcard_filter: wv("WildcardFilter"),
      interface_filter: wv("InterfaceFilter"),
      template_filter: wv("TemplateFilter"),
    },
    empty: "Empty",
    openapi: "CumulativeFilter.identifierFilter -> IdentifierFilter (Empty | InterfaceFilter | TemplateFilter | WildcardFilter, each {value})",
  },
  "com.daml.ledger.api.v2.TopologyEvent.event": {
    placement: "nested",
    variants: {
      participant_authorization_changed: wv("ParticipantAuthorizationChanged"),
      participant_authorization_revoked: wv("ParticipantAuthorizationRevoked"),
      participant_authorization_added: wv("ParticipantAuthorizationAdded"),
    },
    empty: "Empty",
    openapi: "TopologyEvent.event -> TopologyEventEvent (Empty | ParticipantAuthorizationAdded | ParticipantAuthorizationChanged | ParticipantAuthorizationRevoked, each {value})",
  },
  "com.daml.ledger.api.v2.admin.Right.kind": {
    placement: "nested",
    variants: {
      participant_admin: wv("ParticipantAdmin"),
      can_act_as: wv("CanActAs"),
      can_read_as: wv("CanReadAs"),
      identity_provider_admin: wv("IdentityProviderAdmin"),
      can_read_as_any_party: wv("CanReadAsAnyParty"),
      can_execute_as: wv("CanExecuteAs"),
      can_execute_as_any_party: wv("CanExecuteAsAnyParty"),
    },
    empty: "Empty",
    openapi:
      "Right.kind -> Kind (CanActAs{value: {party}} | CanExecuteAs | CanExecuteAsAnyParty{value: {}} | CanReadAs | CanReadAsAnyParty | Empty | " +
      "IdentityProviderAdmin | ParticipantAdmin)",
  },
};

/**
 * JSON keys that differ from the proto `json_name`, keyed by `<message full name>.<proto field name>`.
 * Found by comparing every message's printed keys with the properties of its OpenAPI schema.
 */
export const FIELD_RENAMES: { readonly [fieldFullName: string]: string } = {
  // CreatedEvent.createArgument (singular) in OpenAPI CreatedEvent; the commands keep `createArguments`.
  "com.daml.ledger.api.v2.CreatedEvent.create_arguments": "createArgument",
  // UnassignedEvent.reassignmentId (3.4 naming) — this repo's proto still calls it `unassign_id`.
  "com.daml.ledger.api.v2.UnassignedEvent.unassign_id": "reassignmentId",
  // JsAssignmentEvent.reassignmentId / JsAssignedEvent.reassignmentId.
  "com.daml.ledger.api.v2.AssignedEvent.unassign_id": "reassignmentId",
  // JsSubmitAndWaitForTransactionTreeResponse.transactionTree (the proto field is `transaction`).
  "com.daml.ledger.api.v2.SubmitAndWaitForTransactionTreeResponse.transaction": "transactionTree",
};

/** Message full names with a dedicated JSON form (see `SPECIAL_MESSAGES` in `canton-json.ts`). */
export const TYPE_IDENTIFIER = "com.daml.ledger.api.v2.Identifier";
export const TYPE_VALUE = "com.daml.ledger.api.v2.Value";
export const TYPE_RECORD = "com.daml.ledger.api.v2.Record";
export const TYPE_TIMESTAMP = "google.protobuf.Timestamp";
export const TYPE_DURATION = "google.protobuf.Duration";
export const TYPE_EMPTY = "google.protobuf.Empty";
export const TYPE_ANY = "google.protobuf.Any";
export const TYPE_FIELD_MASK = "google.protobuf.FieldMask";
