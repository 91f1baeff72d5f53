// The Firestore emulator for the tests and `lexflow dev` (see devenv.StartFirestore):
// @firestore-emulator/server, a gRPC Firestore that keeps its data in memory, on
// loopback only. It prints "ready" once it listens. Environment: NPM_DIR (where
// node_modules/@firestore-emulator/server is), PORT, and DUMP_PORT: when set, an HTTP
// server on it answers GET /documents with every document of every project, as a
// JSON list of {"path", "fields"}, for tests that read the database as it is stored.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';

// The package's ES module build imports its protos without file extensions, which
// node refuses; its CommonJS build loads.
const require = createRequire(path.join(process.env.NPM_DIR, 'package.json'));
const { FirestoreServer } = require('@firestore-emulator/server');
const { ServerCredentials } = require('@grpc/grpc-js');

// FirestoreServer.start binds every interface; its gRPC server is bound here to
// loopback instead, so an unauthenticated database is not reachable from elsewhere.
const emulator = new FirestoreServer();

// documents walks the emulator's state (FirestoreState.toJSON) for the documents that
// hold fields; a deleted document is kept there, without fields, while it has
// subcollections.
function documents() {
  const out = [];
  const walkCollections = (collections) => {
    for (const c of Object.values(collections ?? {})) {
      for (const d of Object.values(c.documents ?? {})) {
        if (Object.keys(d.fields ?? {}).length > 0) out.push({ path: d.path, fields: d.fields });
        walkCollections(d.collections);
      }
    }
  };
  for (const p of Object.values(emulator.state.toJSON().projects)) {
    for (const db of Object.values(p.databases ?? {})) walkCollections(db.collections);
  }
  return out;
}

function listen(start) {
  return new Promise((resolve, reject) => start((err) => (err ? reject(err) : resolve())));
}

try {
  await listen((done) => emulator.server.bindAsync(`127.0.0.1:${process.env.PORT}`, ServerCredentials.createInsecure(), done));
  if (process.env.DUMP_PORT) {
    const dump = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/documents') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(documents()));
    });
    await listen((done) => dump.listen(Number(process.env.DUMP_PORT), '127.0.0.1', done).on('error', done));
  }
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
console.log('ready');
