export { readDar, parseManifest, DEFAULT_DAR_LIMITS, MANIFEST, type Dar, type DarLimits, type DarPackage } from "./read-dar.js";
export { decodeArchive, type DamlLfArchive } from "./daml-lf-archive.js";
