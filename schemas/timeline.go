package schemas

// ToolGenerateImage is seed 001's generate_image, made a case's timeline chart.
const ToolGenerateImage = "generate_image"

// GenerateImageArgs are generate_image's arguments as seed 001 names them. Prompt is
// the chart's title (the case's language's "Timeline of the case" when empty); Width
// and Height its size in pixels (internal/timeline's MinSide to MaxSide, 1024 when
// left out). Steps and GuidanceScale, a diffusion model's settings in seed 001, have
// no meaning for a chart: they are accepted, so that a call written for seed 001
// works, and ignored.
type GenerateImageArgs struct {
	CaseID        string   `json:"case_id"`
	Prompt        string   `json:"prompt,omitempty"`
	Width         int      `json:"width,omitempty"`
	Height        int      `json:"height,omitempty"`
	Steps         *int     `json:"steps,omitempty"`
	GuidanceScale *float64 `json:"guidance_scale,omitempty"`
}

// GenerateImageResult is what generate_image answers the model: no label of the
// chart (they name parties in clear), only what it plots by lane, its span and where
// the client finds it.
type GenerateImageResult struct {
	Status       string         `json:"status"`
	ErrorMessage string         `json:"error_message,omitempty"`
	Image        string         `json:"image,omitempty"`
	Download     string         `json:"download,omitempty"`
	Width        int            `json:"width,omitempty"`
	Height       int            `json:"height,omitempty"`
	Events       int            `json:"events"`
	ByLane       map[string]int `json:"by_lane,omitempty"`
	From         string         `json:"from,omitempty"`
	To           string         `json:"to,omitempty"`
	LeftOut      int            `json:"left_out,omitempty"`
	Note         string         `json:"note,omitempty"`
}

// TimelinePath is the blob key of a case's timeline chart: one per case, the latest
// drawn, under the case's blob prefix so that it is sealed with the case's key and
// erased with the case.
func TimelinePath(caseID string) string { return CaseBlobPrefix(caseID) + "timeline/timeline.png" }

// TimelineDownload is the API path of a case's timeline chart.
func TimelineDownload(caseID string) string { return "/v1/cases/" + caseID + "/timeline" }

// EventTimelineReady is the event of a timeline chart drawn; its body is
// TimelineReadyEvent.
const EventTimelineReady = "timeline.ready"

// TimelineReadyEvent is timeline.ready's body: where to download the chart, its
// digest and size, and how many events it plots.
type TimelineReadyEvent struct {
	Download string `json:"download"`
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	Events   int    `json:"events"`
}
