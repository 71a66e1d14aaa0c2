/** The three onboarding transactions: byte-identical to the wallet SDK's samples, their hashes and the multi-hash as the reference derives them. */
import { describe, expect, it } from "vitest";
import { decodeBase64, decodeHex } from "../../src/external/byte-encoding.js";
import { toHex } from "../../src/external/canton-hash.js";
import { externalPartyTopology } from "../../src/external/external-party-topology.js";
import { fingerprintOf } from "../../src/external/fingerprint.js";
import { ed25519Key, ED25519_SPKI_PREFIX } from "../../src/external/signing-key.js";
import { multiTransactionHash, ParticipantPermission, readTopologyTransaction, topologyTransactionHash, topologyTransactionOf } from "../../src/external/topology-transactions.js";
import { VECTORS } from "./vectors.js";

const T = VECTORS.topology;
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

describe("topology transactions", () => {
  it("NamespaceDelegation: the sample's bytes from its key, its namespace the key's fingerprint", () => {
    const sample = readTopologyTransaction(decodeBase64(T.namespaceDelegationBase64));
    if (sample.mapping.kind !== "namespace-delegation") throw new Error(sample.mapping.kind);
    const key = ed25519Key(sample.mapping.targetKey.publicKey.subarray(ED25519_SPKI_PREFIX.length));
    expect(fingerprintOf(key)).toBe("1220123087e6bf66d225d047e6af8b0944bc50cc470cb46afd9515a558bf55605441");
    expect(sample.mapping.namespace).toBe(fingerprintOf(key));
    expect(sample).toMatchObject({ operation: 1, serial: 1, mapping: { canSignAllMappings: true, targetKey: { format: 4, usage: [1, 5, 4], keySpec: 1 } } });
    const ours = topologyTransactionOf.namespaceDelegation(fingerprintOf(key), key);
    expect(b64(ours)).toBe(T.namespaceDelegationBase64);
    expect(toHex(topologyTransactionHash(ours))).toBe(T.namespaceDelegationHash);
  });

  it("PartyToKeyMapping: the sample's bytes from its party and key", () => {
    const sample = readTopologyTransaction(decodeBase64(T.partyToKeyMappingBase64));
    if (sample.mapping.kind !== "party-to-key-mapping") throw new Error(sample.mapping.kind);
    expect(sample.mapping.party).toBe("alice::12205a50eb9b9d64bb30ac4125afa1aeea7bcae51792ac2d174a6132ceec9290d062");
    expect(sample.mapping.threshold).toBe(1);
    const key = ed25519Key(decodeHex("039b9f7948d2082adb615b38162a4944184940815828bfbea84dadf2511c720a"));
    const ours = topologyTransactionOf.partyToKeyMapping(sample.mapping.party, 1, [key]);
    expect(b64(ours)).toBe(T.partyToKeyMappingBase64);
    expect(toHex(topologyTransactionHash(ours))).toBe(T.partyToKeyMappingHash);
  });

  it("the multi-hash over the three sample hashes, whatever their order, duplicates counted once", () => {
    const hashes = [T.namespaceDelegationHash, T.partyToKeyMappingHash, T.partyToParticipantHash].map(decodeHex);
    expect(toHex(multiTransactionHash(hashes))).toBe(T.multiHash);
    expect(toHex(multiTransactionHash([hashes[2], hashes[0], hashes[1], hashes[0]]))).toBe(T.multiHash);
  });

  it("PartyToParticipant reads back: party, threshold, the participant with confirmation permission", () => {
    const tx = topologyTransactionOf.partyToParticipant("alice::1220ab", 1, [{ uid: "participant1::1220cd", permission: ParticipantPermission.Confirmation }]);
    // 0a <len> (08 01 10 01 1a <len> 4a <len> (0a 0d alice::1220ab 10 01 1a 18 (0a 14 participant1::1220cd 10 02))) 10 1e
    expect(toHex(tx)).toBe(
      "0a33" + "08011001" + "1a2d" + "4a2b" + "0a0d" + Buffer.from("alice::1220ab").toString("hex") + "1001" + "1a18" + "0a14" + Buffer.from("participant1::1220cd").toString("hex") + "1002" + "101e",
    );
    expect(readTopologyTransaction(tx)).toEqual({
      operation: 1,
      serial: 1,
      mapping: { kind: "party-to-participant", party: "alice::1220ab", threshold: 1, participants: [{ uid: "participant1::1220cd", permission: 2 }] },
    });
  });

  it("a party's topology: its id from the docs key, three transactions, the multi-hash of their hashes", () => {
    const key = ed25519Key(decodeBase64(VECTORS.fingerprint.rawKeyBase64));
    const t = externalPartyTopology("alice", key, "participant1::1220" + "ef".repeat(32));
    expect(t.partyId).toBe("alice::" + VECTORS.fingerprint.expected);
    expect(t.fingerprint).toBe(VECTORS.fingerprint.expected);
    expect(t.transactions.map((tx) => readTopologyTransaction(tx).mapping.kind)).toEqual(["namespace-delegation", "party-to-participant", "party-to-key-mapping"]);
    const p2p = readTopologyTransaction(t.transactions[1]).mapping;
    expect(p2p).toMatchObject({ party: t.partyId, threshold: 1, participants: [{ permission: ParticipantPermission.Confirmation }] });
    expect(t.multiHash).toEqual(multiTransactionHash(t.transactions.map(topologyTransactionHash)));
    expect(t.multiHash.length).toBe(34);
  });

  it("rejects bytes that are no topology transaction", () => {
    for (const bad of [Uint8Array.of(0xff), Uint8Array.of(0x0a, 0x05, 1), decodeBase64(T.namespaceDelegationBase64).subarray(0, 40), Uint8Array.of(0x10, 0x1f)]) {
      expect(() => readTopologyTransaction(bad)).toThrow();
    }
  });
});
