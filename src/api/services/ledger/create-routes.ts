/** Registers every Ledger API service (and the wallet services) on a Connect router. */
import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { CommandCompletionService } from "../../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { CommandService } from "../../../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { CommandSubmissionService } from "../../../../gen/com/daml/ledger/api/v2/command_submission_service_pb.js";
import { EventQueryService } from "../../../../gen/com/daml/ledger/api/v2/event_query_service_pb.js";
import { ContractService } from "../../../../gen/com/daml/ledger/api/v2/contract_service_pb.js";
import { ActiveContractsPageService } from "../../../../gen/ccwallet/ledger/v2/active_contracts_page_pb.js";
import { PackageService } from "../../../../gen/com/daml/ledger/api/v2/package_service_pb.js";
import { StateService } from "../../../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { TimeService } from "../../../../gen/com/daml/ledger/api/v2/testing/time_service_pb.js";
import { UpdateService } from "../../../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { VersionService } from "../../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { InteractiveSubmissionService } from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { PartyManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { UserManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/user_management_service_pb.js";
import { PackageManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/package_management_service_pb.js";
import { commandService, commandSubmissionService } from "./command-services.js";
import { completionService } from "./completion-service.js";
import { eventQueryService } from "./event-query-service.js";
import { contractService } from "./contract-service.js";
import { activeContractsPageService } from "./active-contracts-page.js";
import { interactiveSubmissionService } from "./interactive-submission-service.js";
import type { LedgerApi } from "./ledger-api.js";
import { packageService } from "./package-service.js";
import { packageManagementService } from "./package-management-service.js";
import { partyManagementService } from "./party-management-service.js";
import { stateService } from "./state-service.js";
import { timeService } from "./time-service.js";
import { updateService } from "./update-service.js";
import { userManagementService } from "./user-management-service.js";
import { versionService } from "./version-service.js";

/** The services and their implementations, also used by the JSON gateway to route by annotation. */
export function ledgerServices(api: LedgerApi) {
  return [
    { service: CommandService, impl: commandService(api) },
    { service: CommandSubmissionService, impl: commandSubmissionService(api) },
    { service: CommandCompletionService, impl: completionService(api) },
    { service: UpdateService, impl: updateService(api) },
    { service: StateService, impl: stateService(api) },
    { service: ActiveContractsPageService, impl: activeContractsPageService(api) },
    { service: EventQueryService, impl: eventQueryService(api) },
    { service: ContractService, impl: contractService(api) },
    { service: PackageService, impl: packageService(api) },
    { service: PackageManagementService, impl: packageManagementService(api) },
    { service: VersionService, impl: versionService(api) },
    { service: PartyManagementService, impl: partyManagementService(api) },
    { service: UserManagementService, impl: userManagementService(api) },
    { service: TimeService, impl: timeService(api) },
    { service: InteractiveSubmissionService, impl: interactiveSubmissionService(api) },
  ] as const;
}

/** Registers service implementations (the Ledger API's, the `/v0` ones) on a Connect router. */
export function createRoutes(services: readonly { readonly service: DescService; readonly impl: object }[]): (router: ConnectRouter) => void {
  return (router) => {
    for (const { service, impl } of services) router.service(service as never, impl as never);
  };
}
