package doctext

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // image.DecodeConfig reads JPEG
	_ "image/png"  // and PNG
	"strings"
	"time"
)

// ocrLanguages are the languages tesseract reads with: Romanian, Italian, English.
const ocrLanguages = "ron+ita+eng"

// readImage reads a scan or photo through OCR, once its size is known to be within
// lim.MaxPixels.
func readImage(ctx context.Context, data []byte, lim Limits) (Doc, error) {
	if err := checkImage(data, lim); err != nil {
		return Doc{}, err
	}
	text, err := ocr(ctx, lim.PageTimeout, data)
	if err != nil {
		return Doc{}, err
	}
	if strings.TrimSpace(text) == "" {
		return Doc{}, fmt.Errorf("%w: no text could be read in the image", ErrUnreadable)
	}
	return Doc{Pages: []Page{{N: 1, Text: text, OCR: true}}}, nil
}

// checkImage refuses an image that cannot be decoded or has more than lim.MaxPixels
// pixels, reading only its header.
func checkImage(data []byte, lim Limits) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: the image cannot be decoded: %v", ErrUnreadable, err)
	}
	if px := cfg.Width * cfg.Height; px > lim.MaxPixels {
		return fmt.Errorf("%w: the image has %d pixels, more than %d", ErrTooLarge, px, lim.MaxPixels)
	}
	return nil
}

// maxOCRText bounds the text OCR reads on one page: a dense A4 page holds about 5 KB.
const maxOCRText = 1 << 20

// ocr is the text tesseract reads in an image (PNG, JPEG), within timeout.
func ocr(ctx context.Context, timeout time.Duration, img []byte) (string, error) {
	out, err := run(ctx, timeout, maxOCRText, img, "tesseract", "stdin", "stdout", "-l", ocrLanguages)
	if err != nil {
		return "", fmt.Errorf("OCR: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}
