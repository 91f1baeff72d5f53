package mongostore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// How transcripts are read on FerretDB: it narrows a query by nothing but an exact
// _id, so the query ListRecords makes on MongoDB would read every case's records there,
// and a model call would cost more the more cases the store holds. So on FerretDB each
// turn's records are also kept together in one document of TurnsCollection, _id
// "<case>/<turn_no>", and the case's turn 0 document holds its last turn number:
// ListRecords reads the turns it needs by _id, newest first. The records collection
// stays what everything else reads and deletes by. migrateTurns builds the documents
// of records stored before they existed.

// TurnsCollection holds, on FerretDB, each turn's records together (see above).
const TurnsCollection = "transcript_turns"

// turnsMigrated is the settings document that says migrateTurns has run.
const turnsMigrated = "transcript_turns_migrated"

// turnDoc is one turn's records; a case's turn 0 document also holds its last turn
// number. The same record may be in Records twice, stored apart by a retry that
// changed it: the first one counts, as in the records collection.
type turnDoc struct {
	ID       string      `bson:"_id"`
	CaseID   string      `bson:"case_id"`
	LastTurn int         `bson:"last_turn,omitempty"`
	Records  []recordDoc `bson:"records,omitempty"`
}

// turnKey is the _id of a case's turn document.
func turnKey(caseID string, turn int) string { return fmt.Sprintf("%s/%d", caseID, turn) }

// isFerretDB reports whether the server is FerretDB, whose buildInfo says so.
func isFerretDB(ctx context.Context, client *mongo.Client) (bool, error) {
	var info bson.M
	if err := client.Database("admin").RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return false, fmt.Errorf("read the server's build info: %w", err)
	}
	_, ok := info["ferretdbVersion"]
	return ok, nil
}

// storeTurns adds records to their turns' documents, and raises each case's last turn.
func (s *Store) storeTurns(ctx context.Context, recs []recordDoc) error {
	type turn struct {
		caseID string
		no     int
	}
	byTurn := map[turn][]recordDoc{}
	last := map[string]int{}
	for _, r := range recs {
		k := turn{r.CaseID, r.TurnNo}
		byTurn[k] = append(byTurn[k], r)
		last[r.CaseID] = max(last[r.CaseID], r.TurnNo)
	}
	for k, docs := range byTurn {
		unlock := s.lock("turns:" + k.caseID)
		err := s.upsertTurn(ctx, turnKey(k.caseID, k.no), bson.M{
			"$setOnInsert": bson.M{"case_id": k.caseID},
			"$addToSet":    bson.M{"records": bson.M{"$each": docs}},
		})
		unlock()
		if err != nil {
			return fmt.Errorf("store turn %d of case %s: %w", k.no, k.caseID, err)
		}
	}
	for caseID, no := range last {
		unlock := s.lock("turns:" + caseID)
		err := s.upsertTurn(ctx, turnKey(caseID, 0), bson.M{
			"$setOnInsert": bson.M{"case_id": caseID},
			"$max":         bson.M{"last_turn": no},
		})
		unlock()
		if err != nil {
			return fmt.Errorf("store the last turn of case %s: %w", caseID, err)
		}
	}
	return nil
}

// upsertTurn applies update to the turn document id, inserting it if need be. Two
// processes inserting one document at once (the lock is one process's) leave one of
// them a duplicate key: the document is there then, and the update applies on a
// second try.
func (s *Store) upsertTurn(ctx context.Context, id string, update bson.M) error {
	upsert := options.UpdateOne().SetUpsert(true)
	_, err := s.turns.UpdateOne(ctx, bson.M{"_id": id}, update, upsert)
	if mongo.IsDuplicateKeyError(err) {
		_, err = s.turns.UpdateOne(ctx, bson.M{"_id": id}, update, upsert)
	}
	return err
}

// listTurns is ListRecords on the turn documents: from the case's last turn (or the
// one before beforeTurn) down, until limit records are found or turn 0 is read.
func (s *Store) listTurns(ctx context.Context, caseID string, beforeTurn, limit int) ([]store.Record, error) {
	first, found, err := s.turnAt(ctx, caseID, 0)
	if err != nil || !found {
		return []store.Record{}, err
	}
	top := first.LastTurn
	if beforeTurn > 0 {
		top = min(top, beforeTurn-1)
	}
	var newest []recordDoc // newest first
	for no := top; no >= 0 && (limit <= 0 || len(newest) < limit); no-- {
		d := first
		if no > 0 {
			if d, found, err = s.turnAt(ctx, caseID, no); err != nil {
				return nil, err
			} else if !found {
				continue // a turn that stored no record
			}
		}
		recs := turnRecords(d.Records)
		slices.Reverse(recs)
		newest = append(newest, recs...)
	}
	if limit > 0 && len(newest) > limit {
		newest = newest[:limit]
	}
	out := make([]store.Record, len(newest))
	for i, d := range newest {
		out[len(newest)-1-i] = store.Record(d)
	}
	return out, nil
}

// turnRecords is a turn's records in order, each once: the first stored of a record
// stored twice.
func turnRecords(docs []recordDoc) []recordDoc {
	out := make([]recordDoc, 0, len(docs))
	for _, d := range docs {
		if !slices.ContainsFunc(out, func(o recordDoc) bool { return o.ID == d.ID }) {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b recordDoc) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// turnAt reads a case's turn document.
func (s *Store) turnAt(ctx context.Context, caseID string, no int) (turnDoc, bool, error) {
	d, err := findOne[turnDoc](ctx, s.turns, bson.M{"_id": turnKey(caseID, no)}, fmt.Sprintf("turn %d of case %s", no, caseID))
	if errors.Is(err, store.ErrNotFound) {
		return turnDoc{}, false, nil
	}
	return d, err == nil, err
}

// migrateTurns builds the turn documents of the records stored before they existed,
// once: a settings document says it is done. Running it twice, or while records are
// stored, adds nothing twice.
func (s *Store) migrateTurns(ctx context.Context) error {
	err := s.settings.FindOne(ctx, bson.M{"_id": turnsMigrated}).Err()
	if err == nil {
		return nil
	}
	if !errors.Is(err, mongo.ErrNoDocuments) {
		return fmt.Errorf("migrate transcripts: %w", err)
	}
	cur, err := s.transcripts.Find(ctx, bson.M{})
	if err != nil {
		return fmt.Errorf("migrate transcripts: %w", err)
	}
	defer cur.Close(ctx)
	const batch = 500
	var docs []recordDoc
	for cur.Next(ctx) {
		var d recordDoc
		if err := cur.Decode(&d); err != nil {
			return fmt.Errorf("migrate transcripts: %w", err)
		}
		if docs = append(docs, d); len(docs) == batch {
			if err := s.storeTurns(ctx, docs); err != nil {
				return err
			}
			docs = docs[:0]
		}
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("migrate transcripts: %w", err)
	}
	if err := s.storeTurns(ctx, docs); err != nil {
		return err
	}
	_, err = s.settings.InsertOne(ctx, bson.M{"_id": turnsMigrated})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("migrate transcripts: %w", err)
	}
	return nil
}
