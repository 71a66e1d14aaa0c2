export { grpcRoutes, serveGrpcNatively, type ServiceBinding } from "./native-grpc.js";
export { specGrpcMessageHandler } from "./grpc-message-encoding.js";
