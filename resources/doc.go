// Package resources is the on-disk library of the workbench: the workspace
// (cwd, project root, Pi and forge directories, project trust), discovery of
// presets, capabilities and profiles by scope, and guarded atomic writes.
// It loads immutable snapshots that the engine computes over; it never
// imports the engine's callers (ui) and never prompts.
package resources
