export { grpcRoutes, serveGrpcNatively, type ServiceBinding } from "./native-grpc.js";
export { specGrpcMessageHandler } from "./grpc-message-encoding.js";
export { MAX_MESSAGE_NESTING } from "./grpc-call.js";
export { MAX_REQUEST_MESSAGE_BYTES } from "./grpc-wire.js";
export { trackSessions } from "./grpc-sessions.js";
