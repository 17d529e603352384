package chat

import "context"

// markEarlier marks, in answers keyed by run id, the artifacts another run
// made. Answers recorded before attribution by hash announced every file
// of the session after each call, so an old answer would show the charts of
// earlier turns again; the row of each artifact says which turn made it.
func (s *Service) markEarlier(ctx context.Context, answers map[string]*Answer) error {
	var ids []string
	for _, a := range answers {
		for _, art := range a.Artifacts {
			ids = append(ids, art.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	runOf, err := s.db.ArtifactRuns(ctx, ids)
	if err != nil {
		return err
	}
	for runID, a := range answers {
		for i := range a.Artifacts {
			if run, ok := runOf[a.Artifacts[i].ID]; ok && run != runID {
				a.Artifacts[i].Earlier = true
			}
		}
	}
	return nil
}

// Own returns the artifacts the answer's turn made or changed, in the order
// they were made; those of earlier turns it only cites are left out.
func (a *Answer) Own() []ArtifactRef {
	own := make([]ArtifactRef, 0, len(a.Artifacts))
	for _, art := range a.Artifacts {
		if !art.Earlier {
			own = append(own, art)
		}
	}
	return own
}
