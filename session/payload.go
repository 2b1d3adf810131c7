package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
)

// Kinds of a payload file.
const (
	// PayloadCapture is a saved provider payload (`/payload next save=`):
	// the redacted display JSON, possibly cut and then not JSON.
	PayloadCapture = "capture"
	// PayloadTurn is a turn snapshot ({"turnId", …, "blocks":[…]}).
	PayloadTurn = "turn"
)

// MaxPayloadFileBytes bounds what ReadPayloadFile reads: pi-forge writes at
// most about 200,000 characters, a turn snapshot of a very long request a
// few MB.
const MaxPayloadFileBytes = 64 << 20

// ErrPayloadTooLarge is returned for a file over MaxPayloadFileBytes.
var ErrPayloadTooLarge = errors.New("payload file too large")

// ErrNotPayloadFile is returned for a directory (a FIFO or device fails
// with ErrNotRegular).
var ErrNotPayloadFile = errors.New("is a directory, not a payload file")

// PayloadFile is a saved payload or turn-snapshot file, read.
type PayloadFile struct {
	Path string
	// Kind is PayloadCapture or PayloadTurn.
	Kind string
	// Text is the file as Node would read it (ill-formed UTF-8 replaced).
	Text string
	// Value is the parsed JSON (nil when the text is not JSON).
	Value any
	// Valid is true when the text is JSON.
	Valid bool
	// Turn is the snapshot the diff uses: the turn itself, or pi-forge's
	// extractTurnSnapshot of a capture whose payload is this file's JSON —
	// one payload-text block when it is not JSON.
	Turn turndiff.Turn
	// Recovery describes what a capture that is not JSON still holds (nil
	// for valid files).
	Recovery *turndiff.Recovery
	// Losses lists the redaction markers in the capture (or in what was
	// recovered of it).
	Losses []turndiff.Loss
	// ModTime is the file's modification time (zero when unknown).
	ModTime time.Time
	// TurnError explains why a file shaped like a turn snapshot was read as
	// a capture instead ("" otherwise).
	TurnError string
}

// ReadPayloadFile reads a saved payload or turn-snapshot file. Only a file
// that cannot be read is an error; any content is data.
func ReadPayloadFile(path string) (*PayloadFile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("read payload %s: %w", path, ErrNotPayloadFile)
	}
	f, info, err := openRegular(path) // a FIFO or device is refused, never read
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	defer f.Close()
	data, err := readPayloadBytes(f, info)
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	if len(data) > MaxPayloadFileBytes {
		return nil, fmt.Errorf("read payload %s: %w (over %d MiB)", path, ErrPayloadTooLarge, MaxPayloadFileBytes>>20)
	}
	return ParsePayload(path, data, info.ModTime()), nil
}

// readPayloadBytes reads a payload file up to its size at open, and at
// most one byte more than MaxPayloadFileBytes, into one buffer of that
// size (reading to the end through a growing buffer copied a large file
// a dozen times).
func readPayloadBytes(f *os.File, info os.FileInfo) ([]byte, error) {
	buf := make([]byte, min(info.Size(), MaxPayloadFileBytes+1))
	n, err := io.ReadFull(sizedReader(f, info), buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil // the file shrank since it was opened: what is there
	}
	return buf[:n], err
}

// ParsePayload interprets the bytes of a payload file. The turn id is the
// path, capturedAt the modification time (ISO, UTC) when known.
func ParsePayload(path string, data []byte, mod time.Time) *PayloadFile {
	p := &PayloadFile{Path: path, Kind: PayloadCapture, Text: jsonv.DecodeUTF8(data), ModTime: mod}
	capturedAt := ""
	if !mod.IsZero() {
		capturedAt = mod.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	v, err := jsonv.Parse([]byte(p.Text))
	if err == nil {
		p.Value, p.Valid = v, true
		if turndiff.LooksLikeTurn(v) {
			turn, terr := turndiff.ParseTurn(v)
			if terr == nil {
				p.Kind, p.Turn = PayloadTurn, turn
				return p
			}
			p.TurnError = terr.Error()
		}
		// pi-forge's secret-key rule (§12.3): a raw provider request read
		// here never shows an api_key-like value (a pi-forge capture is
		// redacted already, so this changes nothing in it; a turn snapshot
		// is not a request, and its approxTokens is no secret).
		v = turndiff.RedactFaithful(v)
		p.Value = v
		p.Turn = turndiff.ExtractPayload(path, capturedAt, "", v, p.Text)
		p.Losses = turndiff.Losses(v)
		return p
	}
	rec := turndiff.Recover(p.Text)
	p.Recovery = &rec
	p.Losses = turndiff.Losses(rec.Value)
	p.Turn = turndiff.ExtractPayload(path, capturedAt, "", nil, p.Text)
	return p
}

// RecoveredTurn splits what Recovery kept of a cut capture into blocks, for
// showing (the diff itself uses the single payload-text block). The last
// block is cut when Recovery.CutField is set. ok is false when nothing
// object-shaped was recovered.
func (p *PayloadFile) RecoveredTurn() (turndiff.Turn, bool) {
	if p.Recovery == nil {
		return turndiff.Turn{}, false
	}
	if _, isObj := p.Recovery.Value.(*jsonv.Object); !isObj {
		return turndiff.Turn{}, false
	}
	return turndiff.ExtractPayload(p.Path, "", "", p.Recovery.Value, ""), true
}

// SavedPayload is one file of a saved-payload directory.
type SavedPayload struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// ListPayloads lists the .json files of dir (the project's
// .pi/forge/payloads), newest first. A missing directory is no payloads,
// not an error.
func ListPayloads(dir string) ([]SavedPayload, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list saved payloads: %w", err)
	}
	var out []SavedPayload
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		out = append(out, SavedPayload{Path: filepath.Join(dir, e.Name()), Size: info.Size(), ModTime: info.ModTime()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].Path > out[j].Path
	})
	return out, nil
}
