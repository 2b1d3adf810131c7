// Command forgebench is a keyboard-driven terminal workbench for the Pi coding
// agent with the pi-forge and pi-subagent extensions. The command tree lives
// in package cli; release builds set its version variables with -ldflags -X
// (see .goreleaser.yaml).
package main

import (
	"os"

	"github.com/forgebench/forgebench/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
