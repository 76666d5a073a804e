import Foundation

/// The repository root, found from this file's path (Tests/SusiTestSupport/Repository.swift).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The bundled skills directory.
public let bundledSkillsDirectory = repositoryRoot + "/models/skills"
