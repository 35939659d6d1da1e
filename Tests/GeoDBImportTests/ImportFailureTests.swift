// Bad input: every case fails with a one-line error naming the file and the place in it, and leaves
// an existing output byte-identical with no temporary file behind.
import Foundation
import GeoDB
import GeoDBImport
import Testing
import TestSupport

@Suite struct ImportFailureTests {
    /// A directory holding a good database `out.sqlite`, built from the grid fixture.
    struct Setup {
        let scratch: ScratchDirectory
        let output: String
        let original: Data

        init() throws {
            scratch = try ScratchDirectory()
            output = scratch.path("out.sqlite")
            _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: output)
            original = try Data(contentsOf: URL(fileURLWithPath: output))
        }

        func write(_ name: String, _ data: Data) throws -> String {
            let path = scratch.path(name)
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Imports `input` over the good output and returns the error; checks nothing was damaged or left.
        func failingImport(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> GeoDBError? {
            let before = scratch.contents()
            var options = ImportOptions()
            options.force = true
            let error = #expect(throws: GeoDBError.self, sourceLocation: sourceLocation) {
                _ = try Importer.run(inputs: [input], output: output, options: options)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == original, "output changed", sourceLocation: sourceLocation)
            #expect(scratch.contents() == before, "a temporary file was left behind", sourceLocation: sourceLocation)
            #expect(error?.description.contains("\n") == false, sourceLocation: sourceLocation)
            return error
        }
    }

    static let pbf = { try! Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleData("helsinki.osm.pbf"))) }()

    /// Offset of the n-th frame (0-based) of a PBF file.
    static func frameOffset(_ data: Data, _ n: Int) -> Int {
        var offset = 0
        for _ in 0..<n {
            let bytes = [UInt8](data)
            let headerLength = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            // BlobHeader: field 1 type (string), field 3 datasize (varint) — scan for the 0x18 key.
            var i = offset + 4
            let end = i + headerLength
            var dataSize = 0
            while i < end {
                let key = bytes[i]; i += 1
                if key == 0x0a { i += Int(bytes[i]) + 1; continue }
                if key == 0x18 {
                    var shift = 0
                    while true { let b = bytes[i]; i += 1; dataSize |= Int(b & 0x7f) << shift; if b < 0x80 { break }; shift += 7 }
                    continue
                }
                break
            }
            offset = end + dataSize
        }
        return offset
    }

    @Test func truncatedPBF() throws {
        let setup = try Setup()
        let input = try setup.write("cut.osm.pbf", Self.pbf.prefix(300_000))
        let error = try setup.failingImport(input)
        #expect(error?.code == .badInput)
        #expect(error?.message.contains("cut.osm.pbf: byte offset ") == true)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func pbfCutInsideABlobLength() throws {
        let setup = try Setup()
        let offset = Self.frameOffset(Self.pbf, 2)
        let input = try setup.write("cut2.osm.pbf", Self.pbf.prefix(offset + 2))
        let error = try setup.failingImport(input)
        #expect(error?.message.contains("byte offset \(offset)") == true)
        #expect(error?.message.contains("blob length") == true)
    }

    @Test func corruptZlibBlob() throws {
        let setup = try Setup()
        var data = Self.pbf
        let frame = Self.frameOffset(data, 1)
        for i in (frame + 200)..<(frame + 260) { data[i] ^= 0x5a }
        let error = try setup.failingImport(try setup.write("corrupt.osm.pbf", data))
        #expect(error?.message.contains("byte offset \(frame)") == true)
        #expect(error?.message.contains("corrupt zlib blob") == true)
    }

    /// Blocks are decoded on another thread while the file is read on: a block that does not decode is
    /// the error, even when the reading thread meets the file's end before that block is decoded.
    @Test func undecodableBlockIsReportedBeforeALaterCut() throws {
        let setup = try Setup()
        let frame = Self.frameOffset(Self.pbf, 3)
        // An uncompressed ("raw") blob whose block is a length-delimited field longer than the block.
        let block: [UInt8] = [0x0a, 0xff, 0xff, 0x03, 0x01]
        let blob: [UInt8] = [0x0a, UInt8(block.count)] + block
        let header: [UInt8] = [0x0a, 0x07] + Array("OSMData".utf8) + [0x18, UInt8(blob.count)]
        var data = Self.pbf.prefix(frame)
        data.append(contentsOf: [0, 0, 0, UInt8(header.count)] + header + blob)
        data.append(Self.pbf[Self.frameOffset(Self.pbf, 4)...].prefix(100))
        let error = try setup.failingImport(try setup.write("undecodable.osm.pbf", data))
        #expect(error?.message.contains("byte offset \(frame): corrupt data block") == true, "\(error?.message ?? "")")
    }

    @Test func unknownBlobType() throws {
        let setup = try Setup()
        var data = Self.pbf
        let frame = Self.frameOffset(data, 1)
        let range = try #require(data.range(of: Data("OSMData".utf8), in: frame..<(frame + 20)))
        data.replaceSubrange(range, with: Data("OSMDatX".utf8))
        let error = try setup.failingImport(try setup.write("odd.osm.pbf", data))
        #expect(error?.message.contains("byte offset \(frame): unknown blob type 'OSMDatX'") == true)
    }

    @Test func malformedXML() throws {
        let setup = try Setup()
        let text = try String(contentsOfFile: TestPaths.fixture("grid.osm"), encoding: .utf8)
        let broken = text.replacingOccurrences(of: "<way id=\"103\"><nd ref=\"5\"/><nd ref=\"6\"/>", with: "<way id=\"103\"><nd ref=\"5\"/><nd ref=\"6\">")
        let error = try setup.failingImport(try setup.write("broken.osm", Data(broken.utf8)))
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("<way id=\"103\">") }! + 1
        #expect(error?.message.hasPrefix(setup.scratch.path("broken.osm") + ": line \(line): malformed XML") == true)
    }

    @Test func truncatedXML() throws {
        let setup = try Setup()
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("grid.osm")))
        let error = try setup.failingImport(try setup.write("half.osm", data.prefix(data.count / 2)))
        #expect(error?.message.contains("half.osm: line ") == true)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func nodeWithoutNumericCoordinates() throws {
        let setup = try Setup()
        let xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n<node id='1' lat='60.1' lon='24.9'/>\n<node id='2' lat='north' lon='24.9'/>\n</osm>\n"
        let error = try setup.failingImport(try setup.write("badnode.osm", Data(xml.utf8)))
        #expect(error?.message.hasSuffix("badnode.osm: line 4: node 2 without numeric lat/lon attributes") == true)
    }

    @Test func osmChangeIsRefused() throws {
        let setup = try Setup()
        let xml = "<?xml version='1.0'?>\n<osmChange version='0.6'><create><node id='1' lat='1' lon='1'/></create></osmChange>\n"
        let error = try setup.failingImport(try setup.write("diff.osc", Data(xml.utf8)))
        #expect(error?.code == .unknownFormat || error?.code == .unsupportedInput)
    }

    @Test func emptyFile() throws {
        let setup = try Setup()
        let error = try setup.failingImport(try setup.write("empty.osm.pbf", Data()))
        #expect(error?.message.hasSuffix("empty.osm.pbf: byte offset 0: empty file") == true)
    }

    @Test func unknownFormat() throws {
        let setup = try Setup()
        let error = try setup.failingImport(try setup.write("notes.txt", Data("just some text\n".utf8)))
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.contains("notes.txt: unknown format") == true)
    }

    @Test func truncatedBzip2() throws {
        let setup = try Setup()
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("grid.osm.bz2")))
        let error = try setup.failingImport(try setup.write("cut.osm.bz2", whole.prefix(whole.count - 20)))
        #expect(error?.code == .badInput)
        #expect(error?.message.contains("cut.osm.bz2: byte offset") == true)
        #expect(error?.message.contains("file ends inside a bzip2 stream") == true)
    }

    @Test func corruptBzip2() throws {
        let setup = try Setup()
        var data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("grid.osm.bz2")))
        for i in 100..<140 { data[i] ^= 0x5a }
        let error = try setup.failingImport(try setup.write("corrupt.osm.bz2", data))
        #expect(error?.code == .badInput)
        #expect(error?.message.contains("corrupt.osm.bz2: byte offset") == true)
        #expect(error?.message.contains("corrupt bzip2 data") == true)
    }

    @Test func missingInputFile() throws {
        let setup = try Setup()
        let error = try setup.failingImport(setup.scratch.path("nope.osm.pbf"))
        #expect(error?.code == .fileNotFound)
    }

    @Test func existingOutputIsRefusedWithoutForce() throws {
        let setup = try Setup()
        let error = #expect(throws: GeoDBError.self) {
            _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: setup.output)
        }
        #expect(error?.code == .fileExists)
        #expect(error?.remedy?.contains("`force`") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.output)) == setup.original)
    }

    @Test func gzipCompressedXMLImports() throws {
        let setup = try Setup()
        let gz = setup.scratch.path("grid.osm.gz")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -c '\(TestPaths.fixture("grid.osm"))' > '\(gz)'"]
        try process.run()
        process.waitUntilExit()
        let summary = try Importer.run(inputs: [gz], output: setup.scratch.path("gz.sqlite"))
        #expect(summary.places == 12)
        #expect(summary.sources[0].format == .osmXMLGzip)
        #expect(!setup.scratch.contents().contains { $0.contains(".tmp-") })
    }

    /// One bzip2 stream, and two streams one after the other (as pbzip2 writes them): the same places.
    @Test(arguments: ["grid.osm.bz2", "grid-multistream.osm.bz2"])
    func bzip2CompressedXMLImports(fixture: String) throws {
        let setup = try Setup()
        let summary = try Importer.run(inputs: [TestPaths.fixture(fixture)], output: setup.scratch.path("bz2.sqlite"))
        #expect(summary.places == 12)
        #expect(summary.sources[0].format == .osmXMLBzip2)
        #expect(summary.sources[0].read.nodes == 27)
        #expect(!setup.scratch.contents().contains { $0.contains(".tmp-") })
    }
}
