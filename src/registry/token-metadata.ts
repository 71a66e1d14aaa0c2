/**
 * The registry's token-metadata-v1 answers: Canton Coin is the one instrument, `Amulet`,
 * administered by the DSO, with 10 decimals (Daml's Numeric 10), as Splice's scan serves it.
 */
import { notFound } from "./registry-error.js";

export const AMULET_INSTRUMENT_ID = "Amulet";

/** The token-standard APIs this registry serves, by package name, with their major versions. */
export const SUPPORTED_APIS: Readonly<Record<string, number>> = {
  "splice-api-token-metadata-v1": 1,
  "splice-api-token-holding-v1": 1,
  "splice-api-token-transfer-instruction-v1": 1,
  "splice-api-token-allocation-v1": 1,
  "splice-api-token-allocation-instruction-v1": 1,
};

export interface InstrumentInfo {
  readonly id: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly supportedApis: Readonly<Record<string, number>>;
}

export function registryInfo(dso: string) {
  return { adminId: dso, supportedApis: { ...SUPPORTED_APIS } };
}

const AMULET: InstrumentInfo = { id: AMULET_INSTRUMENT_ID, name: "Amulet", symbol: "Amulet", decimals: 10, supportedApis: SUPPORTED_APIS };

/** All instruments (one page: there is one). A page token past `Amulet` gives the empty page. */
export function listInstruments(pageToken: string | undefined): InstrumentInfo[] {
  return pageToken === undefined || pageToken === "" ? [AMULET] : [];
}

export function instrument(id: string): InstrumentInfo {
  if (id !== AMULET_INSTRUMENT_ID) throw notFound(`Instrument ${JSON.stringify(id)} not found`);
  return AMULET;
}
