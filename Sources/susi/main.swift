import Foundation

exit(SusiCLI.main(Array(CommandLine.arguments.dropFirst())))
