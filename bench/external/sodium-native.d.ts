// The two libsodium calls the load generator signs with (sodium-native ships no types).
declare module "sodium-native" {
  export function crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void;
  export function crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
}
