// The Firestore emulator for the tests and `lexflow dev` (see devenv.StartFirestore):
// @firestore-emulator/server, a gRPC Firestore that keeps its data in memory, on
// loopback only. It prints "ready" once it listens. Environment: NPM_DIR
// (where node_modules/@firestore-emulator/server is), PORT.
import { createRequire } from 'node:module';
import path from 'node:path';

// The package's ES module build imports its protos without file extensions, which
// node refuses; its CommonJS build loads.
const require = createRequire(path.join(process.env.NPM_DIR, 'package.json'));
const { FirestoreServer } = require('@firestore-emulator/server');
const { ServerCredentials } = require('@grpc/grpc-js');

// FirestoreServer.start binds every interface; its gRPC server is bound here to
// loopback instead, so an unauthenticated database is not reachable from elsewhere.
const emulator = new FirestoreServer();
emulator.server.bindAsync(`127.0.0.1:${process.env.PORT}`, ServerCredentials.createInsecure(), (err) => {
  if (err) {
    console.error(err.message);
    process.exit(1);
  }
  console.log('ready');
});
