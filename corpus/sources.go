package corpus

// sourceInfo is what the provenance notes (data/provenance) say about a source: whether
// it holds every article of the acts it holds, or every decision of the courts it
// holds; whether its acts keep the articles later inserted with suffixed numbers
// ("615-ter", "21^1"); and the date its texts are current as of.
type sourceInfo struct {
	complete bool
	suffixed bool
	asOf     string
}

// sourceInfos describes the shipped sources. Case law is never complete: the corpus
// holds a few hundred decisions, not every decision of a court.
var sourceInfos = map[string]sourceInfo{
	// The consolidated text with the 2018 corrigendum.
	SourceGDPR: {complete: true, suffixed: true, asOf: "2018-05-23"},
	// Normattiva's texts as the upstream repository took them, repealed articles
	// mostly included; a few plain numbers within the codes are missing, and so are
	// some suffixed articles (art. 322-quater c.p., art. 25-terdecies of D.Lgs.
	// 231/2001).
	SourceNormattiva: {complete: true, suffixed: false, asOf: "2026-02-21"},
	// The codes as scraped in mid-2023; superscript articles (21^1) were lost by the
	// upstream extraction, and some codes are their texts as first enacted (actAsOf).
	SourceROCodes: {complete: true, suffixed: false, asOf: "2023-06-29"},
	// The text in force as the upstream project aligned it with Normattiva, at its
	// commit of 2026-08-17 (the 2023 amendment of art. 33 included).
	SourceCostituzione: {complete: true, suffixed: false, asOf: "2026-08-17"},
	SourceCassazione:   {asOf: "2026-07-07"},
	SourceRejust:       {asOf: "2026-07-21"},
}

// actAsOf dates the acts whose text is older than their source's date: three Romanian
// codes are the texts published when they were enacted, without the amendments since
// (the Codul civil before Legea 71/2011, the Codul de procedură civilă before its 2015
// republication, the Codul muncii of 2003), as their articles' wording shows.
var actAsOf = map[string]string{
	"ro/legea-287-2009": "2009-07-24",
	"ro/legea-134-2010": "2010-07-15",
	"ro/legea-53-2003":  "2003-02-05",
}
