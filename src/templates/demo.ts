/**
 * A small demo package (`ccwallet-demo`) that exercises every engine feature: signatories and
 * observers, consuming and non-consuming choices, nested creates, fetches, a contract key and an
 * interface with a view. Tests and benchmarks use it; Canton Coin's templates use the same API.
 */
import { t, type ValueOf } from "../ledger/daml-type.js";

import { qualifiedName } from "../ledger/registry.js";
import { choice, defineInterface, defineTemplate, type InterfaceChoice, type Template } from "../ledger/template.js";
import { updated } from "../util/extend.js";

export const DEMO_PACKAGE = "ccwallet-demo";
const VERSION = "1.0.0";
const q = (module: string, entity: string) => qualifiedName(DEMO_PACKAGE, VERSION, module, entity);

const assetView = t.record({ owner: t.party, amount: t.numeric(), description: t.text }, { packageName: DEMO_PACKAGE, moduleName: "Ccwallet.Demo.Asset", entityName: "AssetView" });
type AssetView = ValueOf<typeof assetView>;

const describeChoice: InterfaceChoice<AssetView, Record<string, never>, string> = {
  name: "Asset_Describe",
  consuming: false,
  argument: t.record({}),
  result: t.text,
  controllers: (view) => [view.owner],
};

export const Asset = defineInterface<AssetView>({
  id: q("Ccwallet.Demo.Asset", "Asset"),
  view: assetView,
  choices: [describeChoice as InterfaceChoice<AssetView, never, unknown>],
});

const iouPayload = t.record(
  { issuer: t.party, owner: t.party, currency: t.text, amount: t.numeric(), observers: t.list(t.party) },
  { packageName: DEMO_PACKAGE, moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" },
);
type IouPayload = ValueOf<typeof iouPayload>;

export const Iou_Transfer = choice<IouPayload, ReturnType<typeof t.record<{ newOwner: typeof t.party }>>, typeof t.contractId>({
  name: "Iou_Transfer",
  consuming: true,
  argument: t.record({ newOwner: t.party }),
  result: t.contractId,
  controllers: (p) => [p.owner],
  body: (ctx, self, arg) => ctx.create(Iou, updated(self.payload, { owner: arg.newOwner })),
});

export const Iou_Split = choice({
  name: "Iou_Split",
  consuming: true,
  argument: t.record({ splitAmount: t.numeric() }),
  result: t.record({ splitCid: t.contractId, restCid: t.contractId }),
  controllers: (p: IouPayload) => [p.owner],
  body: async (ctx, self, arg) => {
    const { amount } = self.payload;
    ctx.require(arg.splitAmount.isPositive() && arg.splitAmount.lt(amount), "splitAmount must be between 0 and the amount");
    const splitCid = await ctx.create(Iou, updated(self.payload, { amount: arg.splitAmount }));
    const restCid = await ctx.create(Iou, updated(self.payload, { amount: amount.sub(arg.splitAmount) }));
    return { splitCid, restCid };
  },
});

export const Iou_Inspect = choice({
  name: "Iou_Inspect",
  consuming: false,
  argument: t.record({}),
  result: t.numeric(),
  controllers: (p: IouPayload) => [p.owner],
  body: (_ctx, self) => self.payload.amount,
});

/** Compares with another Iou the owner can see: the body fetches it (a Fetch node in a prepared transaction). */
export const Iou_Compare = choice({
  name: "Iou_Compare",
  consuming: false,
  argument: t.record({ otherCid: t.contractId }),
  result: t.numeric(),
  controllers: (p: IouPayload) => [p.owner],
  body: async (ctx, self, arg) => {
    const other = await ctx.fetch(Iou, arg.otherCid);
    return self.payload.amount.sub(other.amount);
  },
});

export const Iou: Template<IouPayload> = defineTemplate<IouPayload>({
  id: q("Ccwallet.Demo.Iou", "Iou"),
  payload: iouPayload,
  signatories: (p) => [p.issuer],
  observers: (p) => [p.owner, ...p.observers],
  ensure: (p) => (p.amount.isPositive() ? undefined : "amount must be positive"),
  choices: [Iou_Transfer, Iou_Split, Iou_Inspect, Iou_Compare],
  interfaces: [
    {
      iface: Asset,
      view: (p: IouPayload) => ({ owner: p.owner, amount: p.amount, description: `${p.amount} ${p.currency}` }),
      choices: { Asset_Describe: (_ctx: unknown, self: { payload: IouPayload }) => `${self.payload.amount} ${self.payload.currency} owed by ${self.payload.issuer}` },
    },
  ],
});

const accountKey = t.record({ owner: t.party, id: t.text });
const accountPayload = t.record(
  { owner: t.party, id: t.text, balance: t.numeric() },
  { packageName: DEMO_PACKAGE, moduleName: "Ccwallet.Demo.Account", entityName: "Account" },
);
type AccountPayload = ValueOf<typeof accountPayload>;
type AccountKey = ValueOf<typeof accountKey>;

export const Account_Deposit = choice({
  name: "Account_Deposit",
  consuming: true,
  argument: t.record({ amount: t.numeric() }),
  result: t.contractId,
  controllers: (p: AccountPayload) => [p.owner],
  body: (ctx, self, arg) => {
    ctx.require(arg.amount.isPositive(), "deposit must be positive");
    return ctx.create(Account, updated(self.payload, { balance: self.payload.balance.add(arg.amount) }));
  },
});

export const Account: Template<AccountPayload, AccountKey> = defineTemplate<AccountPayload, AccountKey>({
  id: q("Ccwallet.Demo.Account", "Account"),
  payload: accountPayload,
  signatories: (p) => [p.owner],
  key: { type: accountKey, of: (p) => ({ owner: p.owner, id: p.id }), maintainers: (k) => [k.owner] },
  choices: [Account_Deposit],
});

export const demoTemplates = [Iou, Account] as const;
