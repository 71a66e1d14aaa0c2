/**
 * admin.UserManagementService: users and their rights. Administrators manage everyone; a user
 * may read itself and its own rights (as in Canton, where an empty user id means "me").
 */
import { decodePageToken, encodePageToken } from "./page-token.js";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Right, User } from "../../../../gen/com/daml/ledger/api/v2/admin/user_management_service_pb.js";
import { RightSchema, UserManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/user_management_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { requireAdmin } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { isPartyId, isUserId } from "../../../ledger/ids.js";
import type { UserRecord, UserRight } from "../../../ledger/records.js";
import type { Store } from "../../../ledger/store-port.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import { checkAnnotations, checkResourceVersion } from "./object-meta.js";
import { updatedUser, userUpdatePaths } from "./user-update.js";
import { MAX_PAGE_SIZE } from "./version-service.js";
import { extend } from "../../../util/extend.js";

const userToProto = (u: UserRecord) => ({
  id: u.id,
  primaryParty: u.primaryParty,
  isDeactivated: u.isDeactivated,
  metadata: { resourceVersion: u.metadata.resourceVersion, annotations: { ...u.metadata.annotations } },
  identityProviderId: u.identityProviderId,
});

export function rightToProto(r: UserRight): MessageInitShape<typeof RightSchema> {
  switch (r.kind) {
    case "ParticipantAdmin":
      return { kind: { case: "participantAdmin", value: {} } };
    case "IdentityProviderAdmin":
      return { kind: { case: "identityProviderAdmin", value: {} } };
    case "CanActAs":
      return { kind: { case: "canActAs", value: { party: r.party } } };
    case "CanReadAs":
      return { kind: { case: "canReadAs", value: { party: r.party } } };
    case "CanReadAsAnyParty":
      return { kind: { case: "canReadAsAnyParty", value: {} } };
    case "CanExecuteAs":
      return { kind: { case: "canExecuteAs", value: { party: r.party } } };
    case "CanExecuteAsAnyParty":
      return { kind: { case: "canExecuteAsAnyParty", value: {} } };
  }
}

async function rightsFromProto(rights: readonly Right[], store: Store): Promise<UserRight[]> {
  const out: UserRight[] = [];
  for (const r of rights) {
    const k = r.kind;
    const party = async (p: string) => {
      if (!isPartyId(p)) throw errors.invalidField("rights", `Invalid party id ${JSON.stringify(p)}`);
      if (!(await store.party(p))) throw errors.unknownParties([p]);
      return p;
    };
    switch (k.case) {
      case "participantAdmin":
        out.push({ kind: "ParticipantAdmin" });
        break;
      case "identityProviderAdmin":
        out.push({ kind: "IdentityProviderAdmin" });
        break;
      case "canActAs":
        out.push({ kind: "CanActAs", party: await party(k.value.party) });
        break;
      case "canReadAs":
        out.push({ kind: "CanReadAs", party: await party(k.value.party) });
        break;
      case "canReadAsAnyParty":
        out.push({ kind: "CanReadAsAnyParty" });
        break;
      case "canExecuteAs":
        out.push({ kind: "CanExecuteAs", party: await party(k.value.party) });
        break;
      case "canExecuteAsAnyParty":
        out.push({ kind: "CanExecuteAsAnyParty" });
        break;
      default:
        throw errors.invalidField("rights", "a right must set its kind");
    }
  }
  return out;
}

function checkUserId(id: string): string {
  if (!id) throw errors.missingField("user_id");
  if (!isUserId(id)) throw errors.invalidField("user_id", `Invalid user id ${JSON.stringify(id)}`);
  return id;
}

function checkPrimaryParty(party: string): void {
  if (party && !isPartyId(party)) throw errors.invalidField("user.primary_party", `Invalid party id ${JSON.stringify(party)}`);
}

function userFromProto(u: User | undefined): Omit<UserRecord, "rights"> {
  if (!u) throw errors.missingField("user");
  const id = checkUserId(u.id);
  checkPrimaryParty(u.primaryParty);
  checkAnnotations(u.metadata?.annotations ?? {}, false, "user.metadata.annotations");
  return {
    id,
    primaryParty: u.primaryParty,
    isDeactivated: u.isDeactivated,
    metadata: { resourceVersion: "0", annotations: { ...(u.metadata?.annotations ?? {}) } },
    identityProviderId: u.identityProviderId,
  };
}

export function userManagementService(api: LedgerApi): ServiceImpl<typeof UserManagementService> {
  /** The target user id: the request's, or the caller's own when empty; others need admin. */
  const target = async (requested: string, ctx: Parameters<typeof authenticate>[1]) => {
    const caller = await authenticate(api, ctx);
    const id = requested || caller.id;
    if (id !== caller.id) requireAdmin(caller);
    return checkUserId(id);
  };
  return {
    createUser: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        const user: UserRecord = extend(userFromProto(req.user), { rights: await rightsFromProto(req.rights, api.store) });
        if (!(await api.store.addUser(user))) throw errors.userAlreadyExists(user.id);
        return { user: userToProto(user) };
      }),
    getUser: (req, ctx) =>
      guard(api.log, async () => {
        const id = await target(req.userId, ctx);
        const user = await api.store.user(id);
        if (!user) throw errors.userNotFound(id);
        return { user: userToProto(user) };
      }),
    updateUser: (req, ctx) =>
      guard(api.log, async () => {
        const caller = await authenticate(api, ctx);
        requireAdmin(caller);
        const u = req.user;
        if (!u) throw errors.missingField("user");
        const id = checkUserId(u.id);
        checkResourceVersion(u.metadata?.resourceVersion ?? "", "user.metadata.resource_version");
        checkAnnotations(u.metadata?.annotations ?? {}, true, "user.metadata.annotations");
        const paths = userUpdatePaths(id, req.updateMask?.paths ?? []);
        checkPrimaryParty(u.primaryParty);
        // As deleting itself: an administrator locking itself out is refused (Canton's check).
        if (id === caller.id && u.isDeactivated && paths.has("is_deactivated")) throw errors.invalidArgument("Requesting user cannot self-deactivate");
        const asked = u.metadata?.resourceVersion ?? "";
        const changes = { primaryParty: u.primaryParty, isDeactivated: u.isDeactivated, annotations: u.metadata?.annotations ?? {} };
        const user = await api.store.updateUser(id, (held) => {
          // Concurrent change control is optional: only a request naming a version is checked.
          if (asked !== "" && asked !== held.metadata.resourceVersion) throw errors.concurrentUserUpdate(id);
          return updatedUser(held, paths, changes);
        });
        if (!user) throw errors.userNotFound(id, "updating user");
        return { user: userToProto(user) };
      }),
    deleteUser: (req, ctx) =>
      guard(api.log, async () => {
        const caller = await authenticate(api, ctx);
        requireAdmin(caller);
        const id = checkUserId(req.userId);
        if (id === caller.id) throw errors.invalidArgument("a user cannot delete itself");
        if (!(await api.store.deleteUser(id))) throw errors.userNotFound(id);
        return {};
      }),
    listUsers: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        if (req.pageSize < 0) throw errors.invalidField("page_size", "must not be negative");
        const size = Math.min(req.pageSize || MAX_PAGE_SIZE, MAX_PAGE_SIZE);
        const page = await api.store.users(decodePageToken(req.pageToken), size);
        return { users: page.map(userToProto), nextPageToken: page.length === size ? encodePageToken(page[page.length - 1].id) : "" };
      }),
    grantUserRights: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        const id = checkUserId(req.userId);
        const granted = await api.store.grantRights(id, await rightsFromProto(req.rights, api.store));
        if (!granted) throw errors.userNotFound(id);
        return { newlyGrantedRights: granted.map(rightToProto) };
      }),
    revokeUserRights: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        const id = checkUserId(req.userId);
        const rights: UserRight[] = [];
        for (const r of req.rights) {
          // Revoking needs no party lookup: a right for an unknown party is simply not held.
          const k = r.kind;
          if (k.case === "canActAs" || k.case === "canReadAs" || k.case === "canExecuteAs") {
            rights.push({ kind: k.case === "canActAs" ? "CanActAs" : k.case === "canReadAs" ? "CanReadAs" : "CanExecuteAs", party: k.value.party });
          } else if (k.case) {
            rights.push(...(await rightsFromProto([r], api.store)));
          }
        }
        const revoked = await api.store.revokeRights(id, rights);
        if (!revoked) throw errors.userNotFound(id);
        return { newlyRevokedRights: revoked.map(rightToProto) };
      }),
    listUserRights: (req, ctx) =>
      guard(api.log, async () => {
        const id = await target(req.userId, ctx);
        const user = await api.store.user(id);
        if (!user) throw errors.userNotFound(id);
        return { rights: user.rights.map(rightToProto) };
      }),
  };
}
