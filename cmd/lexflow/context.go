package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// contextTimeout bounds the context command's request.
const contextTimeout = 30 * time.Second

// runContext prints what a case's next assistant model call would read, as GET
// /v1/admin/cases/{id}/context answers an admin: each message with its part and size,
// the earlier turns left out and the budgets; --json prints the answer as it is.
func runContext(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	base := fs.String("api", cfg.PublicURL, "the API's base URL")
	token := fs.String("token", "", "an admin's bearer token whose scope reaches the case (lexflow token --role admin ...)")
	message := fs.String("message", "", "the client's next message, to see the call with it")
	raw := fs.Bool("json", false, "print the API's answer as it is")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *token == "" {
		return errors.New("usage: lexflow context --token ADMIN_TOKEN [--api URL] [--message TEXT] [--json] <case-id>")
	}
	u := strings.TrimSuffix(*base, "/") + "/v1/admin/cases/" + url.PathEscape(fs.Arg(0)) + "/context"
	if *message != "" {
		u += "?message=" + url.QueryEscape(*message)
	}
	ctx, cancel := context.WithTimeout(ctx, contextTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+*token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s: %s", u, resp.Status, body)
	}
	if *raw {
		_, err = out.Write(body)
		return err
	}
	var v api.ContextView
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	printContext(out, v)
	return nil
}

// printContext writes a call as the context command shows it.
func printContext(out io.Writer, v api.ContextView) {
	fmt.Fprintf(out, "Case %s: the next model call reads %d messages, about %d tokens of a context of %d (earlier turns: at most %d); its %d tools' definitions about %d more.\n",
		v.CaseID, len(v.Messages), v.Tokens, v.ContextTokens, v.HistoryBudget, len(v.Tools), v.ToolTokens)
	if len(v.Dropped) > 0 {
		fmt.Fprintf(out, "%d earlier turns are left out, summarized in the summary message.\n", len(v.Dropped))
	}
	for i, m := range v.Messages {
		p := v.Parts[i]
		head := fmt.Sprintf("#%d %s", i+1, p.Kind)
		if p.TurnNo > 0 {
			head += fmt.Sprintf(", turn %d", p.TurnNo)
		}
		if p.Tool != "" {
			head += ", " + p.Tool
		}
		head += fmt.Sprintf(": %d characters, %d tokens", p.Chars, p.Tokens)
		if p.Note != "" {
			head += " (" + p.Note + ")"
		}
		fmt.Fprintf(out, "\n--- %s ---\n", head)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(out, "call %s %s %s\n", c.ID, c.Name, c.Arguments)
		}
		if m.Content != "" {
			fmt.Fprintln(out, m.Content)
		}
	}
}
