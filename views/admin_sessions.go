package views

// AdminSessions is the admin's account of Code Interpreter sessions over
// the last Days days: per user, and the conversations that opened the most.
type AdminSessions struct {
	Days          int
	Total         CodeSessions
	Users         []AdminSessionsUser
	Conversations []AdminSessionsConversation
}

// AdminSessionsUser is one user's sessions.
type AdminSessionsUser struct {
	Username string
	CodeSessions
}

// AdminSessionsConversation is one conversation's sessions.
type AdminSessionsConversation struct {
	ID, Title, Username string
	CodeSessions
}
