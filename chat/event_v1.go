package chat

import (
	"encoding/json"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
)

// Version 1 of the stored events (before the "v" field) embedded the
// Foundry client's event as "foundry". Those structs may change with the
// service; this is a frozen copy of the part of their JSON that answers
// used, so that conversations recorded then still show as they streamed.

type v1Event struct {
	At       time.Time    `json:"at"`
	Foundry  *v1Foundry   `json:"foundry"`
	Text     string       `json:"text"`
	Status   string       `json:"status"`
	Artifact *ArtifactRef `json:"artifact"`
	Missing  *MissingFile `json:"missing"`
}

type v1Foundry struct {
	Type        string `json:"type"`
	ItemID      string `json:"item_id"`
	ContainerID string `json:"container_id"`
	Text        string `json:"text"`
	Status      string `json:"status"`
	Output      struct {
		URL string `json:"url"`
	} `json:"output"`
	Citation Citation `json:"citation"`
	Item     *struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		Code   string `json:"code"`
	} `json:"item"`
	Usage Usage `json:"usage"`
}

// decodeV1 reads a version 1 row into today's Event; ok is false when the
// row does not have the version 1 shape.
func decodeV1(typ EventType, data []byte) (Event, bool) {
	var v v1Event
	if json.Unmarshal(data, &v) != nil {
		return Event{}, false
	}
	e := Event{Type: typ, At: v.At, Text: v.Text, Status: EventStatus(v.Status), Artifact: v.Artifact, Missing: v.Missing}
	if f := v.Foundry; f != nil {
		e = fromV1Foundry(f)
		e.At = v.At
	}
	return e, true
}

// fromV1Foundry maps a version 1 Foundry event onto today's steps; the
// events no answer used (created, completed, failed…) keep their type,
// which Answer.Apply ignores.
func fromV1Foundry(f *v1Foundry) Event {
	e := Event{Type: EventType(f.Type), CellID: f.ItemID, ContainerID: f.ContainerID, Text: f.Text, Status: EventStatus(f.Status)}
	switch f.Type {
	case "item_added":
		if f.Item != nil && f.Item.Type == string(foundry.ItemCodeCall) {
			e.Type = EventCellAdded
		}
	case "image":
		e.Image = f.Output.URL
	case "file_citation":
		c := f.Citation
		e.Citation = &c
	case "usage":
		u := f.Usage
		e.Usage = &u
	case "item_done":
		if f.Item != nil && f.Item.Type == string(foundry.ItemCodeCall) {
			e.Type, e.Text, e.Status = EventCellDone, f.Item.Code, cellOutcome(f.Item.Status)
		}
	}
	return e
}
