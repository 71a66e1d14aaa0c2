export { grpcRoutes, serveGrpcNatively, type ServiceBinding } from "./native-grpc.js";
export { specGrpcMessageHandler } from "./grpc-message-encoding.js";
export { MAX_MESSAGE_NESTING } from "./grpc-call.js";
export { MAX_REQUEST_MESSAGE_BYTES } from "./grpc-wire.js";
export { GRPC_UNARY_STREAMS_PER_CONNECTION, trackSessions } from "./grpc-sessions.js";
export { MAX_PUBLIC_REQUEST_BYTES, REQUEST_BYTES_IN_FLIGHT, REQUEST_RECEIVE_MS } from "./request-limits.js";
export { admitBeforeBody, methodsByPath } from "./admit-before-body.js";
