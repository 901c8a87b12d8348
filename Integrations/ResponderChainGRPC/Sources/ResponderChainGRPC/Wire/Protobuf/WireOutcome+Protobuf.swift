extension WireOutcome: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var kind = ""
        var hops = 0
        var captureHops = 0
        var handlers: [WireResponder] = []
        var captureHandlerCount = 0
        var info: [WireValue] = []
        var infoLeftBehind: [String] = []
        var responder = MessageOccurrences()
        var phase = ""
        var closedBy = MessageOccurrences()
        var isForwardingLoop: Bool?
        var lastReached = MessageOccurrences()
        var hop: Int?
        var whileHandling: Bool?
        var stopReason: String?
        var error = MessageOccurrences()
        var rejection: String?
        var limit: Int?
        var attempts: Int?
        while let field = try reader.nextField() {
            switch field {
            case 1: kind = try reader.readString()
            case 2: hops = try reader.readInt()
            case 3: captureHops = try reader.readInt()
            case 4: handlers.append(try reader.readMessage())
            case 5: captureHandlerCount = try reader.readInt()
            case 6: info.append(try reader.readMessage())
            case 7: infoLeftBehind.append(try reader.readString())
            case 8: try reader.readMessage(into: &responder)
            case 9: try reader.readMessage(into: &closedBy)
            case 10: isForwardingLoop = try reader.readBool()
            case 11: try reader.readMessage(into: &lastReached)
            case 12: phase = try reader.readString()
            case 13: hop = try reader.readInt()
            case 14: whileHandling = try reader.readBool()
            case 15: stopReason = try reader.readString()
            case 16: try reader.readMessage(into: &error)
            case 17: rejection = try reader.readString()
            case 18: limit = try reader.readInt()
            case 19: attempts = try reader.readInt()
            default: try reader.skipField()
            }
        }
        guard let responder = try reader.message(responder, as: WireResponder.self) else {
            throw .missing("WireOutcome.responder")
        }
        self.init(
            kind: kind, hops: hops, captureHops: captureHops, handlers: handlers,
            captureHandlerCount: captureHandlerCount, info: info, infoLeftBehind: infoLeftBehind,
            responder: responder, phase: phase)
        self.closedBy = try reader.message(closedBy)
        self.isForwardingLoop = isForwardingLoop
        self.lastReached = try reader.message(lastReached)
        self.hop = hop
        self.whileHandling = whileHandling
        self.stopReason = stopReason
        self.error = try reader.message(error)
        self.rejection = rejection
        self.limit = limit
        self.attempts = attempts
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: kind)
        writer.write(2, int: hops)
        writer.write(3, int: captureHops)
        for handler in handlers { writer.write(4, message: handler) }
        writer.write(5, int: captureHandlerCount)
        for value in info { writer.write(6, message: value) }
        for name in infoLeftBehind { writer.writeOptional(7, string: name) }
        writer.write(8, message: responder)
        writer.writeOptional(9, message: closedBy)
        writer.writeOptional(10, bool: isForwardingLoop)
        writer.writeOptional(11, message: lastReached)
        writer.write(12, string: phase)
        writer.writeOptional(13, int: hop)
        writer.writeOptional(14, bool: whileHandling)
        writer.writeOptional(15, string: stopReason)
        writer.writeOptional(16, message: error)
        writer.writeOptional(17, string: rejection)
        writer.writeOptional(18, int: limit)
        writer.writeOptional(19, int: attempts)
    }
}

extension WireResponder: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var id: UInt64 = 0
        var label = ""
        while let field = try reader.nextField() {
            switch field {
            case 1: id = try reader.readUInt64()
            case 2: label = try reader.readString()
            default: try reader.skipField()
            }
        }
        self.init(id: id, label: label)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, uint: id)
        writer.write(2, string: label)
    }
}

extension RemoteHandlerError: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var type = ""
        var message = ""
        while let field = try reader.nextField() {
            switch field {
            case 1: type = try reader.readString()
            case 2: message = try reader.readString()
            default: try reader.skipField()
            }
        }
        self.init(type: type, message: message)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: type)
        writer.write(2, string: message)
    }
}
