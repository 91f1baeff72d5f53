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

// The emulator reads a collection group query (from[0].all_descendants: every
// collection of that ID at any depth under the parent) as a query of the one
// collection parent/ID, and so answers it with nothing. Firestore's answer is given
// here instead: the query runs as the emulator runs any, over the documents of every
// collection named ID under the parent, so that its filters, order and aggregations
// apply as they do to one collection's.
function groupDocuments(parent, id) {
  const [, project, , database, , ...below] = parent.split('/');
  const top = below.length === 0
    ? emulator.state.getProject(project).getDatabase(database).collections
    : emulator.state.getDocument(parent).collections;
  const out = [];
  const walk = (collections) => {
    for (const c of Object.values(collections ?? {})) {
      const docs = Object.values(c.documents ?? {});
      if (c.name === id) out.push(...docs);
      for (const d of docs) walk(d.collections);
    }
  };
  walk(top);
  return out;
}
const runQuery = emulator.state.v1Query;
emulator.state.v1Query = function (parent, query) {
  const from = query.from?.[0];
  if (!from?.all_descendants) return runQuery.call(this, parent, query);
  const docs = groupDocuments(parent, from.collection_id);
  this.getCollection = () => ({ getAllDocuments: () => docs });
  try {
    return runQuery.call(this, parent, query);
  } finally {
    delete this.getCollection;
  }
};

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
