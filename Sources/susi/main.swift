import Foundation

ProcessClock.begin()
exit(SusiCLI.main(Array(CommandLine.arguments.dropFirst())))
