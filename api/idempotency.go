package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// An Idempotency-Key binds the message it was first sent with. As the IETF's
// Idempotency-Key draft asks, the same key with another message is refused (422
// idempotency-key-reused) rather than answered with the first message's turn. The
// send-message update's ID is the key's digest followed by the message's, so that
// Temporal deduplicates only a true repeat; another message with a known key reaches
// the case, which answers that the key started a turn earlier, and the API compares
// that turn's recorded message with this one. The key binds the message's text, not
// its toggles.

// keyDigest scopes an Idempotency-Key to its caller and case: the same key from
// someone else, or for another case, is another request.
func keyDigest(org, subject, caseID, key string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{org, subject, caseID, key}, "\x00")))
	return "idem-" + hex.EncodeToString(sum[:])
}

// keyedUpdateID is the update ID of a message sent with the key whose digest is
// digest: the digest, and the message's own.
func keyedUpdateID(digest, message string) string {
	sum := sha256.Sum256([]byte(message))
	return digest + "-" + hex.EncodeToString(sum[:8])
}

// keyedTurnMessages bounds the transcript records read to find the message of the
// turn a key started: the newest records of that turn and those before it.
const keyedTurnMessages = 500

// sameKeyedMessage fails unless turnID, the turn that the request's Idempotency-Key
// started earlier in case caseID, was started by message.
func (h *handlers) sameKeyedMessage(ctx context.Context, caseID, turnID, message string) error {
	n, err := strconv.Atoi(strings.TrimPrefix(turnID, strings.TrimSuffix(schemas.TurnWorkflowID(caseID, 0), "0")))
	if err != nil {
		return fmt.Errorf("the key's turn %q is no turn of case %s", turnID, caseID)
	}
	recs, err := h.Store.ListRecords(ctx, caseID, n+1, keyedTurnMessages)
	if err != nil {
		return fmt.Errorf("%w: read the transcript: %w", errUnavailable, err)
	}
	for _, r := range recs {
		if r.TurnID != turnID || r.Role != schemas.RecordUser {
			continue
		}
		if r.Content != message {
			return problemf(errKeyReused, "this Idempotency-Key started turn "+turnID+" with another message: send a new message with a new key")
		}
		return nil
	}
	return problemf(errConflict, "this Idempotency-Key started turn "+turnID+", whose message is not recorded yet: retry in a moment")
}
