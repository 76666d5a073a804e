import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TensorFlow Lite's C library (`libtensorflowlite_c.so`), loaded at run time with `dlopen`,
/// so that the speaker builds and runs without it (the wake word then falls back to
/// PocketSphinx). Only the dozen functions the wake word's front end needs are looked up.
///
/// The XNNPACK delegate (TensorFlow Lite's optimised CPU kernels, in the same library) is
/// looked up too, but optional: a library without it still runs the models, about three
/// times slower (the embedding model: 4.4 against 1.5 ms per call here, same results to
/// 1e-6; `bench/RESULTS.md`).
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
    typealias DelegateCreate = @convention(c) (UnsafeRawPointer?) -> OpaquePointer?
    typealias AddDelegate = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void

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
    /// XNNPACK's delegate with its default options (one thread); nil when the library lacks it.
    let xnnpack: (create: DelegateCreate, delete: Delete, add: AddDelegate)?

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
        if let create = try? symbol("TfLiteXNNPackDelegateCreate", DelegateCreate.self),
            let delete = try? symbol("TfLiteXNNPackDelegateDelete", Delete.self),
            let add = try? symbol("TfLiteInterpreterOptionsAddDelegate", AddDelegate.self)
        {
            xnnpack = (create, delete, add)
        } else {
            xnnpack = nil
        }
    }
}

/// One TensorFlow Lite model with a fixed input shape, run on one thread.
final class TensorFlowLiteModel {
    private let library: TensorFlowLite
    private let model: OpaquePointer
    private let interpreter: OpaquePointer
    /// The XNNPACK delegate the interpreter runs on, deleted after the interpreter; nil for
    /// TensorFlow Lite's reference kernels.
    private let delegate: OpaquePointer?
    /// Whether the model runs on XNNPACK's kernels.
    var isAccelerated: Bool { delegate != nil }
    /// Whether XNNPACK was refused because it did not compute what the reference kernels do
    /// (seen on an AMD EPYC virtual machine: one input at a time, its embeddings were wrong).
    let acceleratorDisagreed: Bool
    /// Values the model returns per run.
    let outputCount: Int
    /// Values the model takes per run.
    let inputCount: Int

    /// Loads the `.tflite` file at `path` and fixes its first input to `inputShape`; with
    /// `accelerated`, on XNNPACK's kernels when the library has them, and when on `probe`
    /// (an input the model is made for) they give what the reference kernels give; else on
    /// the reference kernels.
    ///
    /// - Throws: `wake-model-missing` (no such file), `wake-init-failed` (TensorFlow Lite
    ///   refused the model or the shape).
    init(
        library: TensorFlowLite, path: String, inputShape: [Int32], accelerated: Bool = true, probe: [Float]? = nil
    ) throws(SpeechError) {
        self.library = library
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.wakeModelMissing, "no wake word model at \(path)")
        }
        guard let model = library.modelCreateFromFile(path) else {
            throw SpeechError(.wakeInitFailed, "TensorFlow Lite cannot read \(path)")
        }
        /// An interpreter on one thread, with `delegate` if one is given, its input shaped.
        func makeInterpreter(delegate: OpaquePointer?) -> OpaquePointer? {
            let options = library.optionsCreate()
            defer { library.optionsDelete(options) }
            library.optionsSetNumThreads(options, 1)
            if let delegate, let xnnpack = library.xnnpack { xnnpack.add(options, delegate) }
            guard let made = library.interpreterCreate(model, options) else { return nil }
            let resized = inputShape.withUnsafeBufferPointer { dims -> Int32 in
                guard let first = dims.baseAddress else { return 1 }
                return library.resizeInputTensor(made, 0, first, Int32(dims.count))
            }
            guard resized == 0, library.allocateTensors(made) == 0 else {
                library.interpreterDelete(made)
                return nil
            }
            return made
        }
        // TensorFlow Lite says "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." on
        // standard error as it makes the delegate, on every command that loads the wake word;
        // its warnings and errors are kept.
        var (delegate, made) = StandardErrorFilter.run(dropping: StandardErrorFilter.isTensorFlowLiteInfo) {
            let delegate = accelerated ? library.xnnpack?.create(nil) : nil
            return (delegate, makeInterpreter(delegate: delegate))
        }
        if made == nil, let unused = delegate {
            library.xnnpack?.delete(unused)
            delegate = nil
            made = makeInterpreter(delegate: nil)
        }
        guard var interpreter = made else {
            library.modelDelete(model)
            throw SpeechError(.wakeInitFailed, "TensorFlow Lite cannot run \(path) with input \(inputShape)")
        }
        inputCount = library.byteSize(library.inputTensor(interpreter, 0)) / MemoryLayout<Float>.size
        outputCount = library.byteSize(library.outputTensor(interpreter, 0)) / MemoryLayout<Float>.size
        var disagreed = false
        if let used = delegate, let probe, probe.count == inputCount, let reference = makeInterpreter(delegate: nil) {
            let fast = Self.outputs(of: interpreter, on: probe, library: library, count: outputCount)
            let slow = Self.outputs(of: reference, on: probe, library: library, count: outputCount)
            if let slow, let fast, Self.agree(fast, slow) {
                library.interpreterDelete(reference)
            } else {
                library.interpreterDelete(interpreter)
                library.xnnpack?.delete(used)
                (interpreter, delegate, disagreed) = (reference, nil, true)
            }
        }
        self.model = model
        self.interpreter = interpreter
        self.delegate = delegate
        acceleratorDisagreed = disagreed
        guard inputCount == inputShape.reduce(1, { $0 * Int($1) }), outputCount > 0 else {
            throw SpeechError(.wakeInitFailed, "\(path) is not a float model of input \(inputShape)")
        }
    }

    /// Whether `values` are what `reference` holds, to TensorFlow Lite's rounding: within a
    /// thousandth of the largest reference value (at least 1). XNNPACK and the reference
    /// kernels differ by under 1e-4 on the wake word's models where both are right.
    static func agree(_ values: [Float], _ reference: [Float]) -> Bool {
        guard values.count == reference.count else { return false }
        let scale = max(1, reference.map(abs).max() ?? 0)
        return zip(values, reference).allSatisfy { abs($0 - $1) <= scale / 1000 }
    }

    /// `interpreter`'s `count` outputs for `input`; nil when TensorFlow Lite fails.
    private static func outputs(of interpreter: OpaquePointer, on input: [Float], library: TensorFlowLite, count: Int)
        -> [Float]?
    {
        var output = [Float](repeating: 0, count: count)
        let done = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { invoke(interpreter, library: library, input: source, output: $0) }
        }
        return done ? output : nil
    }

    /// Copies `input` in, runs `interpreter`, copies its output into `output`; false when
    /// TensorFlow Lite reports an error.
    private static func invoke(
        _ interpreter: OpaquePointer, library: TensorFlowLite, input: UnsafeRawBufferPointer,
        output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard let source = input.baseAddress, let target = output.baseAddress else { return false }
        return library.copyFromBuffer(library.inputTensor(interpreter, 0), source, input.count) == 0
            && library.invoke(interpreter) == 0
            && library.copyToBuffer(library.outputTensor(interpreter, 0), target, output.count) == 0
    }

    deinit {
        library.interpreterDelete(interpreter)
        if let delegate { library.xnnpack?.delete(delegate) }
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
        guard
            Self.invoke(
                interpreter, library: library,
                input: UnsafeRawBufferPointer(start: source, count: inputCount * MemoryLayout<Float>.size),
                output: UnsafeMutableRawBufferPointer(start: target, count: outputCount * MemoryLayout<Float>.size))
        else { throw SpeechError(.wakeDecodeFailed, "TensorFlow Lite failed while listening") }
    }
}
