package subagent

import "sync"

// setVisibility applies §18.4: an agent is visible when its parent is
// visible and its anchor is on the parent session's active branch. Parent
// sessions are read (through the cache) only for agents with children.
func (t *Tree) setVisibility(rootBranch map[string]bool) {
	branches := map[string]map[string]bool{RootPath: rootBranch}
	var mu sync.Mutex
	var parents []*Agent
	for _, a := range t.Agents {
		if len(a.Children) > 0 && a.File != "" {
			parents = append(parents, a)
		}
	}
	forEach(parents, t.opt.Workers, func(a *Agent) {
		fs, parent, err := t.opt.Cache.summary(a.File, t.opt.Catalog, true)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			a.SummaryErr = err
			return
		}
		a.Summary, a.spawnTasks = fs, parent.spawnTasks
		branches[a.Path] = parent.branch
	})
	// Agents are sorted by path, so a parent is decided before its children.
	for _, a := range t.Agents {
		parentVisible := a.Parent == RootPath
		if p, ok := t.byPath[a.Parent]; ok {
			parentVisible = p.Visible
		}
		branch, known := branches[a.Parent]
		switch {
		case !parentVisible && a.Parent != RootPath:
			a.Hidden = "its parent " + a.Parent + " is hidden"
		case !known:
			// The parent's session could not be read: nothing proves the
			// agent hidden, so it stays visible.
			a.Visible = true
		case a.Descriptor.AnchorID == "":
			a.Hidden = "it has no anchor"
		case !branch[a.Descriptor.AnchorID]:
			a.Hidden = "its registration " + a.Descriptor.AnchorID + " is not on the active branch of " + a.Parent
		default:
			a.Visible = true
		}
	}
}

// setMaxConcurrent picks the limit: the configured one, else the newest
// descriptor's settings, else pi-subagent's default.
func (t *Tree) setMaxConcurrent() {
	t.MaxConcurrentAgents = t.opt.MaxConcurrentAgents
	if t.MaxConcurrentAgents > 0 {
		return
	}
	newest := ""
	for _, a := range t.Agents {
		if s := a.Descriptor.Settings.MaxConcurrentAgents; s > 0 && a.Descriptor.CreatedAt >= newest {
			newest, t.MaxConcurrentAgents = a.Descriptor.CreatedAt, s
		}
	}
	if t.MaxConcurrentAgents == 0 {
		t.MaxConcurrentAgents = DefaultMaxConcurrentAgents
	}
}

// forEach runs fn over items on at most workers goroutines.
func forEach(items []*Agent, workers int, fn func(*Agent)) {
	if len(items) == 0 {
		return
	}
	workers = max(1, min(workers, len(items)))
	ch := make(chan *Agent)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := range ch {
				fn(a)
			}
		}()
	}
	for _, a := range items {
		ch <- a
	}
	close(ch)
	wg.Wait()
}

// Summaries reads the own session of every agent that has none yet (in
// parallel, through the cache). Missing or unreadable files leave
// SummaryErr set.
func (t *Tree) Summaries() {
	var todo []*Agent
	for _, a := range t.Agents {
		if a.Summary == nil && a.File != "" {
			todo = append(todo, a)
		}
	}
	forEach(todo, t.opt.Workers, func(a *Agent) {
		a.Summary, _, a.SummaryErr = t.opt.Cache.summary(a.File, t.opt.Catalog, false)
	})
	for _, a := range t.Agents {
		if a.File != "" && a.Telemetry == nil {
			a.Telemetry = readTelemetry(a.File)
		}
	}
	// Parents were read by Open (for their children's visibility): they
	// are noted here with the rest, each agent once.
	for _, a := range t.Agents {
		t.noteSummary(a)
	}
	t.findSpawnTasks()
}

// findSpawnTasks reads, for agents whose session and mailbox name no task,
// the spawn_agent call in their parent's session.
func (t *Tree) findSpawnTasks() {
	byParent := map[string][]*Agent{}
	for _, a := range t.Agents {
		if a.Task() != "" || a.SpawnTask != "" {
			continue
		}
		file := t.RootFile
		if p, ok := t.byPath[a.Parent]; ok {
			if p.spawnTasks != nil { // read with its session, for visibility
				a.SpawnTask = p.spawnTasks[a.Name]
				continue
			}
			file = p.File
		}
		if file != "" {
			byParent[file] = append(byParent[file], a)
		}
	}
	for file, agents := range byParent {
		tasks := spawnMessages(file)
		for _, a := range agents {
			a.SpawnTask = tasks[a.Name]
		}
	}
}

// noteSummary records what reading an agent's session revealed, once per
// agent and only after it was read.
func (t *Tree) noteSummary(a *Agent) {
	if a.noted || a.Summary == nil && a.SummaryErr == nil {
		return
	}
	a.noted = true
	switch {
	case a.SummaryErr != nil:
		t.diag(SevWarning, a.Path, a.File, "agent session unreadable: %v", a.SummaryErr)
	case a.Summary.DescriptorIndex < 0 && t.Layout == LayoutV5:
		t.diag(SevWarning, a.Path, a.File, "no pi-subagent/descriptor entry: every entry is counted as the agent's own work")
	}
	if a.Telemetry != nil && a.Telemetry.Problem != "" {
		t.diag(SevWarning, a.Path, a.Telemetry.File, "telemetry sidecar ignored: %s", a.Telemetry.Problem)
	}
}
