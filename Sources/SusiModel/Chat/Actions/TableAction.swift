/// A `table` action: show (or, on a speaker, briefly read) the answer's data rows.
public struct TableAction: ChatActionPayload {
    /// Which row fields to show, in order, and their titles.
    public var columns: TableColumns
    /// How many rows to show; -1 (the default) means all.
    public var count: Int

    /// Creates a table action.
    public init(columns: TableColumns, count: Int = -1) {
        self.columns = columns
        self.count = count
    }

    /// Reads the action. Object-form columns come out sorted by key: Foundation's JSON decoder
    /// does not report member order, and a stable order beats a random one.
    public init(object: [String: JSONValue]) {
        columns = TableColumns(json: object["columns"])
        count = object.lenientInt("count") ?? -1
    }

    public var object: [String: JSONValue] {
        ["columns": columns.json, "count": .number(Double(count))]
    }
}

/// The `columns` of a table action, in either of the two shapes SUSI uses.
public enum TableColumns: Sendable, Equatable {
    /// `{"key": "Title", ...}`: row keys with display titles (sorted by key when decoded).
    case titled([TableColumn])
    /// `["key", ...]`: row keys, shown under their own names.
    case keys([String])

    /// The columns as (key, title) pairs, whatever the shape.
    public var all: [TableColumn] {
        switch self {
        case .titled(let columns): return columns
        case .keys(let keys): return keys.map { TableColumn(key: $0, title: $0) }
        }
    }

    init(json: JSONValue?) {
        switch json {
        case .array(let elements):
            self = .keys(elements.compactMap(\.stringValue))
        case .object(let members):
            self = .titled(
                members.keys.sorted().map { TableColumn(key: $0, title: members[$0]?.stringValue ?? $0) })
        default:
            self = .keys([])
        }
    }

    var json: JSONValue {
        switch self {
        case .titled(let columns):
            return .object(
                Dictionary(
                    columns.map { ($0.key, JSONValue.string($0.title)) },
                    uniquingKeysWith: { first, _ in first }))
        case .keys(let keys):
            return .array(keys.map { .string($0) })
        }
    }
}

/// One table column: the data row key and the title shown for it.
public struct TableColumn: Sendable, Equatable {
    /// The key in each data row.
    public var key: String
    /// The heading.
    public var title: String

    /// Creates a column.
    public init(key: String, title: String) {
        self.key = key
        self.title = title
    }
}
