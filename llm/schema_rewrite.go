package llm

// geminiKeywords are the JSON Schema keywords Gemini's function declarations take
// (its OpenAPI-subset Schema object); it answers 400 "Invalid JSON payload received.
// Unknown name" to any other, such as $schema, additionalProperties or const.
var geminiKeywords = map[string]bool{
	"type": true, "format": true, "title": true, "description": true, "nullable": true, "enum": true,
	"default": true, "example": true, "properties": true, "required": true, "propertyOrdering": true,
	"minProperties": true, "maxProperties": true, "items": true, "minItems": true, "maxItems": true,
	"minLength": true, "maxLength": true, "pattern": true, "minimum": true, "maximum": true, "anyOf": true,
}

// geminiParameters rewrites a tool's JSON Schema into the subset Gemini accepts,
// losslessly where the subset can say the same thing: const becomes a one-value
// enum. Other keywords are dropped: additionalProperties: false among them, which
// costs nothing, as the tool registry drops arguments its schema does not name
// before a tool runs. The schema given is not changed.
func geminiParameters(schema map[string]any) map[string]any {
	out := make(map[string]any, len(schema))
	for k, v := range schema {
		switch {
		case k == "const":
			if _, ok := schema["enum"]; !ok {
				out["enum"] = []any{v}
			}
		case !geminiKeywords[k]:
		case k == "properties":
			props, ok := v.(map[string]any)
			if !ok {
				continue
			}
			rewritten := make(map[string]any, len(props))
			for name, p := range props {
				rewritten[name] = geminiSubschema(p)
			}
			out[k] = rewritten
		case k == "items":
			out[k] = geminiSubschema(v)
		case k == "anyOf":
			list, ok := v.([]any)
			if !ok {
				continue
			}
			rewritten := make([]any, len(list))
			for i, s := range list {
				rewritten[i] = geminiSubschema(s)
			}
			out[k] = rewritten
		default:
			out[k] = v
		}
	}
	return out
}

// geminiSubschema is geminiParameters for a value that should be a schema.
func geminiSubschema(v any) any {
	if s, ok := v.(map[string]any); ok {
		return geminiParameters(s)
	}
	return v
}
