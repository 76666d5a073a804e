import CPortAudio
