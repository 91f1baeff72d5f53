package llm

import (
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/lexflow/lexflow/schemas"
)

// params is the request for msgs and tools, shaped by the client's profile: tool
// schemas rewritten into what the provider accepts, and what it asked to be sent
// back echoed on the assistant messages it wrote.
func (c *Client) params(msgs []schemas.ChatMessage, tools []Tool) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.model)}
	for _, m := range msgs {
		p, err := c.toParam(m)
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, p)
	}
	for _, t := range tools {
		parameters := t.Parameters
		if c.profile.parameters != nil {
			parameters = c.profile.parameters(parameters)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  shared.FunctionParameters(parameters),
		}))
	}
	return params, nil
}

func (c *Client) toParam(m schemas.ChatMessage) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case schemas.MsgSystem:
		return openai.SystemMessage(m.Content), nil
	case schemas.MsgUser:
		return openai.UserMessage(m.Content), nil
	case schemas.MsgTool:
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case schemas.MsgAssistant:
		e := echoed(m, c.provider)
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		if len(e.Message) > 0 {
			a.SetExtraFields(extra(e.Message))
		}
		for _, tc := range m.ToolCalls {
			p := &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
			}
			if fields := e.ToolCalls[tc.ID]; len(fields) > 0 {
				p.SetExtraFields(extra(fields))
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: p})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown message role %q", m.Role)
}
