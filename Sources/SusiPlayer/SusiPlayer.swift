// SusiPlayer
