package timeline

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
)

// layoutKeyword names the PNG text chunk (iTXt, UTF-8) that holds a chart's Layout as
// JSON.
const layoutKeyword = "lexflow-timeline"

// pngSignature starts every PNG.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// ihdrEnd is where a PNG's first chunk, its header (IHDR, 13 bytes of data), ends.
const ihdrEnd = 8 + 4 + 4 + 13 + 4

// withLayout returns the PNG img with l in an uncompressed iTXt chunk right after its
// header.
func withLayout(img []byte, l Layout) ([]byte, error) {
	raw, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("timeline layout: %w", err)
	}
	if len(img) < ihdrEnd || !bytes.HasPrefix(img, pngSignature) || string(img[12:16]) != "IHDR" {
		return nil, errors.New("timeline: not a PNG")
	}
	// keyword, NUL, compression flag 0, method 0, empty language tag and translated
	// keyword (each NUL-ended), the text.
	data := append([]byte(layoutKeyword), 0, 0, 0, 0, 0)
	data = append(data, raw...)
	out := make([]byte, 0, len(img)+len(data)+12)
	out = append(out, img[:ihdrEnd]...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	chunk := append([]byte("iTXt"), data...)
	out = append(out, chunk...)
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
	return append(out, img[ihdrEnd:]...), nil
}

// Read returns the Layout a chart's PNG carries, checking each chunk's CRC up to it.
func Read(img []byte) (Layout, error) {
	if !bytes.HasPrefix(img, pngSignature) {
		return Layout{}, errors.New("timeline: not a PNG")
	}
	for rest := img[len(pngSignature):]; len(rest) >= 12; {
		n := int(binary.BigEndian.Uint32(rest))
		if n > len(rest)-12 {
			return Layout{}, errors.New("timeline: truncated PNG chunk")
		}
		chunk := rest[4 : 8+n]
		if crc32.ChecksumIEEE(chunk) != binary.BigEndian.Uint32(rest[8+n:]) {
			return Layout{}, fmt.Errorf("timeline: bad CRC in a %s chunk", chunk[:4])
		}
		if text, ok := bytes.CutPrefix(chunk, []byte("iTXt"+layoutKeyword+"\x00\x00\x00\x00\x00")); ok {
			var l Layout
			if err := json.Unmarshal(text, &l); err != nil {
				return Layout{}, fmt.Errorf("timeline layout: %w", err)
			}
			return l, nil
		}
		rest = rest[12+n:]
	}
	return Layout{}, errors.New("timeline: the PNG carries no layout")
}
