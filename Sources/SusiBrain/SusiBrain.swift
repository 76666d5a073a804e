// SusiBrain
