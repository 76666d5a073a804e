import Foundation
import SusiSpeaker

ProcessClock.begin()
exit(SusiCLI.main(Array(CommandLine.arguments.dropFirst())))
