package chat

import "context"

// ErrNothingToRetry means the file is not missing from that answer.
var ErrNothingToRetry error = &UserError{"That file is no longer missing from this answer. Reload the page."}

// RetryCopy tries again to copy out a file that failed after a finished
// turn, while its session still lives. The outcome is appended to the
// run's events, so the answer shows it from then on, reloads included.
func (s *Service) RetryCopy(ctx context.Context, userID, convID, runID, fileID string) (*Answer, error) {
	run, err := s.db.Run(ctx, userID, convID, runID)
	if err != nil {
		return nil, err
	}
	if !run.Done() {
		return nil, &UserError{"Wait for the answer to finish, then try again."}
	}
	a, err := s.answer(ctx, runID)
	if err != nil {
		return nil, err
	}
	var missing *MissingFile
	for i := range a.Missing {
		if a.Missing[i].FileID == fileID {
			missing = &a.Missing[i]
		}
	}
	if missing == nil {
		return nil, ErrNothingToRetry
	}
	r := &runner{s: s, run: run, convID: convID, userID: userID, seq: a.Seq, answer: a}
	r.resetCopies()
	r.copyContainerFile(ctx, missing.CellID, missing.ContainerID, missing.FileID, missing.Name, false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.answer.Settle(run)
	return r.answer, nil
}
