package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/store/firestore"
	"github.com/lexflow/lexflow/store/mongostore"
)

// firestoreProject is the project of the stack's Firestore emulator.
const firestoreProject = "lexflow-e2e"

// startDatabase starts the database that LEXFLOW_STORE in the environment names
// (FerretDB unless it is firestore) with its files under dir, sets the stack's db and
// storeEnv to it, points cfg at it, and returns what stops it.
func (s *Stack) startDatabase(ctx context.Context, dir string, cfg *config.Config) (func(), error) {
	if os.Getenv("LEXFLOW_STORE") == config.StoreFirestore {
		dumpPort, err := childproc.FreePort()
		if err != nil {
			return nil, err
		}
		f, err := devenv.StartFirestore(ctx, 0, dumpPort)
		if err != nil {
			return nil, err
		}
		s.db = firestoreDB{url: f.DocumentsURL, project: firestoreProject}
		s.storeEnv = []string{"LEXFLOW_STORE=" + config.StoreFirestore, "FIRESTORE_EMULATOR_HOST=" + f.Host,
			"FIRESTORE_PROJECT_ID=" + firestoreProject}
		cfg.Store, cfg.FirestoreProject, cfg.FirestoreEmulatorHost = config.StoreFirestore, firestoreProject, f.Host
		return f.Stop, nil
	}
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), s.Log)
	if err != nil {
		return nil, err
	}
	s.db = mongoDB{uri: ferret.URI}
	s.storeEnv = []string{"LEXFLOW_STORE=" + config.StoreMongoDB, "MONGODB_URI=" + ferret.URI, "MONGODB_DATABASE=lexflow"}
	cfg.Store, cfg.MongoURI, cfg.MongoDatabase = config.StoreMongoDB, ferret.URI, "lexflow"
	return ferret.Stop, nil
}

// database is the stack's database server, read as it stores documents, past the
// store: what the checks of encryption and erasure look at.
type database interface {
	// documents returns the text of every document of the named collections (a case's
	// subcollections included; every collection when names is nil), by collection.
	documents(ctx context.Context, names []string) (map[string][]string, error)
	// caseDocuments counts, by collection, the documents that hold a case's data.
	caseDocuments(ctx context.Context, caseID string) (map[string]int, error)
}

// mongoDB is the stack's FerretDB.
type mongoDB struct{ uri string }

func (m mongoDB) connect() (*mongo.Database, func(), error) {
	mc, err := mongo.Connect(options.Client().ApplyURI(m.uri))
	if err != nil {
		return nil, nil, err
	}
	return mc.Database("lexflow"), func() { _ = mc.Disconnect(context.Background()) }, nil
}

func (m mongoDB) documents(ctx context.Context, names []string) (map[string][]string, error) {
	db, disconnect, err := m.connect()
	if err != nil {
		return nil, err
	}
	defer disconnect()
	if names == nil {
		if names, err = db.ListCollectionNames(ctx, bson.M{}); err != nil {
			return nil, err
		}
	}
	out := map[string][]string{}
	for _, name := range names {
		cur, err := db.Collection(name).Find(ctx, bson.M{})
		if err != nil {
			return nil, err
		}
		for cur.Next(ctx) {
			out[name] = append(out[name], cur.Current.String())
		}
		if err := cur.Close(ctx); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (m mongoDB) caseDocuments(ctx context.Context, caseID string) (map[string]int, error) {
	db, disconnect, err := m.connect()
	if err != nil {
		return nil, err
	}
	defer disconnect()
	out := map[string]int{}
	for _, coll := range []string{mongostore.CasesCollection, mongostore.TranscriptsCollection, mongostore.PartiesCollection,
		mongostore.TicketsCollection, mongostore.EventsCollection} {
		n, err := db.Collection(coll).CountDocuments(ctx, bson.M{"$or": bson.A{bson.M{"_id": caseID}, bson.M{"case_id": caseID}}})
		if err != nil {
			return nil, err
		}
		out[coll] = int(n)
	}
	return out, nil
}

// firestoreDB is the stack's Firestore emulator, read through its documents dump
// (devenv.Firestore.DocumentsURL) for the stack's project.
type firestoreDB struct{ url, project string }

// storedDocument is one document of the dump: its path from the project's root
// ("projects/p/databases/(default)/documents/cases/c/records/r") and its fields.
type storedDocument struct {
	Path   string          `json:"path"`
	Fields json.RawMessage `json:"fields"`
}

// all returns the project's documents, each under its path from the database's root
// ("cases/c/records/r").
func (f firestoreDB) all(ctx context.Context) (map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the emulator's documents: %s", resp.Status)
	}
	var docs []storedDocument
	if err := json.NewDecoder(resp.Body).Decode(&docs); err != nil {
		return nil, err
	}
	prefix := "projects/" + f.project + "/databases/(default)/documents/"
	out := map[string]string{}
	for _, d := range docs {
		if p, ok := strings.CutPrefix(d.Path, prefix); ok {
			out[p] = string(d.Fields)
		}
	}
	return out, nil
}

func (f firestoreDB) documents(ctx context.Context, names []string) (map[string][]string, error) {
	docs, err := f.all(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for path, fields := range docs {
		segs := strings.Split(path, "/")
		if coll := segs[len(segs)-2]; names == nil || slices.Contains(names, coll) {
			out[coll] = append(out[coll], fields)
		}
	}
	return out, nil
}

func (f firestoreDB) caseDocuments(ctx context.Context, caseID string) (map[string]int, error) {
	docs, err := f.all(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	root := "cases/" + firestore.DocID(caseID)
	for path := range docs {
		if path == root || strings.HasPrefix(path, root+"/") {
			segs := strings.Split(path, "/")
			out[segs[len(segs)-2]]++
		}
	}
	return out, nil
}
