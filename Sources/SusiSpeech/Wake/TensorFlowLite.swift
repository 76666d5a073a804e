import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TensorFlow Lite's C library (`libtensorflowlite_c.so`), loaded at run time with `dlopen`,
/// so that the speaker builds and runs without it (the wake word then falls back to
/// PocketSphinx). Only the dozen functions the wake word's front end needs are looked up.
///
/// The library stays loaded for the life of the process. Not thread-safe: one thread at a
/// time, like the detectors that use it.
final class TensorFlowLite {
    typealias ModelCreateFromFile = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    typealias Delete = @convention(c) (OpaquePointer?) -> Void
    typealias OptionsCreate = @convention(c) () -> OpaquePointer?
    typealias OptionsSetNumThreads = @convention(c) (OpaquePointer?, Int32) -> Void
    typealias InterpreterCreate = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias ResizeInputTensor = @convention(c) (OpaquePointer?, Int32, UnsafePointer<Int32>, Int32) -> Int32
    typealias Status = @convention(c) (OpaquePointer?) -> Int32
    typealias GetTensor = @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    typealias CopyFromBuffer = @convention(c) (OpaquePointer?, UnsafeRawPointer, Int) -> Int32
    typealias CopyToBuffer = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer, Int) -> Int32
    typealias ByteSize = @convention(c) (OpaquePointer?) -> Int

    let modelCreateFromFile: ModelCreateFromFile
    let modelDelete: Delete
    let optionsCreate: OptionsCreate
    let optionsSetNumThreads: OptionsSetNumThreads
    let optionsDelete: Delete
    let interpreterCreate: InterpreterCreate
    let interpreterDelete: Delete
    let resizeInputTensor: ResizeInputTensor
    let allocateTensors: Status
    let invoke: Status
    let inputTensor: GetTensor
    let outputTensor: GetTensor
    let copyFromBuffer: CopyFromBuffer
    let copyToBuffer: CopyToBuffer
    let byteSize: ByteSize

    /// Loads the library at `path`.
    ///
    /// - Throws: `wake-model-missing` when it is absent or lacks one of the functions.
    init(path: String) throws(SpeechError) {
        guard FileManager.default.fileExists(atPath: path), let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "no such file"
            throw SpeechError(.wakeModelMissing, "cannot load TensorFlow Lite from \(path): \(reason)")
        }
        func symbol<Function>(_ name: String, _: Function.Type) throws(SpeechError) -> Function {
            guard let address = dlsym(handle, name) else {
                throw SpeechError(.wakeModelMissing, "\(path) has no \(name)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        modelCreateFromFile = try symbol("TfLiteModelCreateFromFile", ModelCreateFromFile.self)
        modelDelete = try symbol("TfLiteModelDelete", Delete.self)
        optionsCreate = try symbol("TfLiteInterpreterOptionsCreate", OptionsCreate.self)
        optionsSetNumThreads = try symbol("TfLiteInterpreterOptionsSetNumThreads", OptionsSetNumThreads.self)
        optionsDelete = try symbol("TfLiteInterpreterOptionsDelete", Delete.self)
        interpreterCreate = try symbol("TfLiteInterpreterCreate", InterpreterCreate.self)
        interpreterDelete = try symbol("TfLiteInterpreterDelete", Delete.self)
        resizeInputTensor = try symbol("TfLiteInterpreterResizeInputTensor", ResizeInputTensor.self)
        allocateTensors = try symbol("TfLiteInterpreterAllocateTensors", Status.self)
        invoke = try symbol("TfLiteInterpreterInvoke", Status.self)
        inputTensor = try symbol("TfLiteInterpreterGetInputTensor", GetTensor.self)
        outputTensor = try symbol("TfLiteInterpreterGetOutputTensor", GetTensor.self)
        copyFromBuffer = try symbol("TfLiteTensorCopyFromBuffer", CopyFromBuffer.self)
        copyToBuffer = try symbol("TfLiteTensorCopyToBuffer", CopyToBuffer.self)
        byteSize = try symbol("TfLiteTensorByteSize", ByteSize.self)
    }
}

/// One TensorFlow Lite model with a fixed input shape, run on one thread.
final class TensorFlowLiteModel {
    private let library: TensorFlowLite
    private let model: OpaquePointer
    private let interpreter: OpaquePointer
    /// Values the model returns per run.
    let outputCount: Int
    /// Values the model takes per run.
    let inputCount: Int

    /// Loads the `.tflite` file at `path` and fixes its first input to `inputShape`.
    ///
    /// - Throws: `wake-model-missing` (no such file), `wake-init-failed` (TensorFlow Lite
    ///   refused the model or the shape).
    init(library: TensorFlowLite, path: String, inputShape: [Int32]) throws(SpeechError) {
        self.library = library
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.wakeModelMissing, "no wake word model at \(path)")
        }
        guard let model = library.modelCreateFromFile(path) else {
            throw SpeechError(.wakeInitFailed, "TensorFlow Lite cannot read \(path)")
        }
        let options = library.optionsCreate()
        library.optionsSetNumThreads(options, 1)
        defer { library.optionsDelete(options) }
        guard let interpreter = library.interpreterCreate(model, options) else {
            library.modelDelete(model)
            throw SpeechError(.wakeInitFailed, "TensorFlow Lite cannot run \(path)")
        }
        self.model = model
        self.interpreter = interpreter
        let resized = inputShape.withUnsafeBufferPointer { dims -> Int32 in
            guard let first = dims.baseAddress else { return 1 }
            return library.resizeInputTensor(interpreter, 0, first, Int32(dims.count))
        }
        guard resized == 0, library.allocateTensors(interpreter) == 0 else {
            throw SpeechError(.wakeInitFailed, "TensorFlow Lite cannot shape \(path)'s input as \(inputShape)")
        }
        inputCount = library.byteSize(library.inputTensor(interpreter, 0)) / MemoryLayout<Float>.size
        outputCount = library.byteSize(library.outputTensor(interpreter, 0)) / MemoryLayout<Float>.size
        guard inputCount == inputShape.reduce(1) { $0 * Int($1) }, outputCount > 0 else {
            throw SpeechError(.wakeInitFailed, "\(path) is not a float model of input \(inputShape)")
        }
    }

    deinit {
        library.interpreterDelete(interpreter)
        library.modelDelete(model)
    }

    /// Runs the model on `input` (`inputCount` values) and writes `outputCount` values to `output`.
    ///
    /// - Throws: `wake-decode-failed` when TensorFlow Lite reports an error.
    func run(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) throws(SpeechError) {
        guard input.count == inputCount, output.count >= outputCount, let source = input.baseAddress,
            let target = output.baseAddress
        else {
            throw SpeechError(.wakeDecodeFailed, "wake word model given \(input.count) values, expects \(inputCount)")
        }
        guard library.copyFromBuffer(library.inputTensor(interpreter, 0), source, inputCount * MemoryLayout<Float>.size) == 0,
            library.invoke(interpreter) == 0,
            library.copyToBuffer(library.outputTensor(interpreter, 0), target, outputCount * MemoryLayout<Float>.size) == 0
        else { throw SpeechError(.wakeDecodeFailed, "TensorFlow Lite failed while listening") }
    }
}
