// Every result as JSON, once: `geodb serve`'s /v1 answers and the CLI's `--json` print the same objects in
// the same envelopes, so a script written against one reads the other. (The CLI encoded results with
// their Codable keys, a list where /v1 answers {"results": …}, and reverse and nearby in shapes of their own.)
import Foundation

/// The JSON of each kind of answer: /v1's shape, documented in `Sources/GeoDBServer/Web/openapi.json` and
/// `docs/OUTPUT.md`.
package enum ResultJSON {
    /// A place; `id` is the one to show (an id across several files when they answer as one).
    package static func place(_ place: PlaceResult, id: Int64? = nil) -> JSON {
        let sourceID: JSON = place.sourceRef.map { .string($0.description) } ?? .null
        let category: JSON? = place.category.map { .string($0.text) }
        return .fields([
            ("id", .int(id ?? place.id)), ("source_id", sourceID), ("kind", .string(place.kind.rawValue)),
            ("category", category), ("category_id", place.categoryID.map(JSON.string)),
            ("name", place.name.map(JSON.string)), ("display_name", .string(place.displayName)),
            ("lat", .number(place.lat)), ("lon", .number(place.lon)), ("distance_m", place.distanceM.map(JSON.number)),
            ("address", .strings(place.address.dictionary)),
            ("address_derived", place.address.derived.isEmpty ? nil : .array(place.address.derived.map { .string($0.rawValue) })),
            ("address_iso3166_2", place.address.subdivisionCodes.isEmpty ? nil
                : .strings(Dictionary(uniqueKeysWithValues: place.address.subdivisionCodes.map { ($0.key.rawValue, $0.value.code) }))),
            ("tags", .strings(place.tags)), ("timezone", place.timezone.map(JSON.string)),
            ("population", place.population.map(JSON.int)), ("score", place.score.map(JSON.number)),
            ("match", place.match.map { .string($0.rawValue) }),
            ("highlights", place.highlights.map { .array($0.map { .object([("start", .int(Int64($0.start))), ("end", .int(Int64($0.end)))]) }) }),
        ])
    }

    /// A page of results: `{"results": […], "next": the cursor of the next page or null}`, with `explain`
    /// when asked for.
    package static func page(_ results: [JSON], next: String?, explain: [JSON]? = nil) -> JSON {
        .fields([("results", .array(results)), ("next", next.map(JSON.string) ?? .null), ("explain", explain.map(JSON.array))])
    }

    /// A reverse answer: the place, where its hierarchy came from, the point's timezone, water and areas.
    package static func reverse(_ result: ReverseResult, id: Int64? = nil) -> JSON {
        .fields([("place", place(result.place, id: id)), ("hierarchy_source", .string(result.hierarchySource.rawValue)),
                 ("timezone", result.timezone.map(JSON.string)), ("water", result.water.map(JSON.string)),
                 ("areas_of_interest", .array(result.areasOfInterest.map(JSON.string)))])
    }

    /// Everything about one place: the place, its names, its source file's name, its geometry as GeoJSON
    /// (null for a point).
    package static func details(_ details: PlaceDetails, id: Int64? = nil, geometry: Geometry?) -> JSON {
        .object([
            ("place", place(details.place, id: id)),
            ("names", .array(details.names.map { .fields([("name", .string($0.name)), ("type", .string($0.type)),
                                                          ("lang", $0.lang.map(JSON.string))]) })),
            ("source", .string(details.source)),
            ("importance", .number(details.importance)),
            ("geometry", geometry == nil ? .null : JSON.geometry(geometry, point: details.place.coordinate)),
        ])
    }

    /// The zone at `point` and its clock at the answer's date (`known_to_system`: whether this system's tz
    /// database has the zone, without which there is no clock).
    package static func timeZone(_ zone: TimeZoneAnswer, at point: Coordinate) -> JSON {
        .fields([
            ("lat", .number(point.lat)), ("lon", .number(point.lon)),
            ("tzid", .string(zone.tzid)), ("source", .string(zone.source.rawValue)),
            ("candidates", .array(zone.candidates.map(JSON.string))),
            ("distance_m", zone.distanceMeters.map { .number(($0 * 10).rounded() / 10) }), ("at", .string(ISO8601Text.utc(zone.date))),
            ("known_to_system", .bool(zone.knownToSystem)),
            ("utc_offset_seconds", zone.utcOffsetSeconds.map { .int(Int64($0)) }),
            ("utc_offset", zone.utcOffsetSeconds.map { .string(ISO8601Text.offset($0)) }), ("is_dst", zone.isDST.map(JSON.bool)),
            ("abbreviation", zone.abbreviation.map(JSON.string)), ("local_time", zone.localTime.map(JSON.string)),
            ("next_transition", zone.nextTransition.map { .string(ISO8601Text.utc($0)) }),
            ("next_utc_offset_seconds", zone.nextUTCOffsetSeconds.map { .int(Int64($0)) }),
        ])
    }

    /// A database file: what /v1/status lists for each file served and `geodb inspect --json` prints. `file`
    /// names it as its caller does (the server: without its directory; inspect: the path given).
    package static func database(_ info: DatabaseInfo, file: String, timeZones: Bool) -> JSON {
        .fields([
            ("file", .string(file)), ("places", .int(info.placeCount)), ("timezones", .bool(timeZones)),
            ("extent", info.boundingBox.map(box)), ("created_at", info.createdAt.map(JSON.string)),
            ("sources", .array(info.sources.map { source in
                .fields([("name", .string(source.name)), ("format", .string(source.format)), ("places", .int(source.placeCount)),
                         ("data_timestamp", source.dataTimestamp.map(JSON.string)), ("imported_at", .string(source.importedAt)),
                         ("id", .int(source.id)), ("size_bytes", .int(source.sizeBytes)), ("linked", .int(source.linkedCount)),
                         ("replication_sequence", source.replicationSequence.map(JSON.int)),
                         ("replication_url", source.replicationURL.map(JSON.string)),
                         ("writing_program", source.writingProgram.map(JSON.string))])
            })),
            ("file_bytes", .int(info.fileBytes)), ("schema_version", .int(info.schemaVersion)),
            ("generator", info.generator.map(JSON.string)), ("sqlite_version", .string(info.sqliteVersion)),
            ("names", .int(info.nameCount)), ("geometries", .int(info.geometryCount)), ("areas", .int(info.areaCount)),
            ("linked_records", .int(info.linkCount)),
            ("kinds", .array(info.kinds.map { .object([("kind", .string($0.name)), ("places", .int($0.count))]) })),
            // The top categories, when they were counted (the server does not count them).
            ("categories", info.categories.isEmpty ? nil
                : .array(info.categories.map { .object([("category", .string($0.name)), ("places", .int($0.count))]) })),
            ("tables", .array(info.tables.map { .object([("name", .string($0.name)), ("bytes", .int($0.bytes))]) })),
            ("meta", .strings(info.meta)),
        ])
    }

    /// A box: a file's extent, the web page's opening view.
    package static func box(_ box: BoundingBox) -> JSON {
        .object([("min_lat", .number(box.minLat)), ("min_lon", .number(box.minLon)), ("max_lat", .number(box.maxLat)), ("max_lon", .number(box.maxLon))])
    }

    /// The taxonomy with the places of each category.
    package static func categories(_ categories: [CategoryCount]) -> JSON {
        .object([("categories", .array(categories.map { category in
            .fields([("id", .string(category.id)), ("parent", category.parent.map(JSON.string) ?? .null),
                     ("label", .string(category.label)), ("depth", .int(Int64(category.depth))),
                     ("synonyms", .array(category.synonyms.map(JSON.string))), ("osm_tags", .array(category.osmTags.map(JSON.string))),
                     ("places", .int(category.places)), ("places_with_children", .int(category.placesWithChildren))])
        }))])
    }

    /// Why a search of one file answered as it did; `id` maps its places' ids to those shown.
    package static func explanation(_ why: SearchExplanation, file: String, id: (Int64) -> Int64 = { $0 }) -> JSON {
        .fields([
            ("file", .string(file)),
            ("attempts", .array(why.attempts.map { .object([("reading", .string($0.reading.rawValue)), ("candidates", .int(Int64($0.candidates)))]) })),
            ("results", .array(why.results.map { result in
                .fields([("id", .int(id(result.id))), ("name", .string(result.name)),
                         ("reading", .string(result.reading.rawValue)), ("match", result.match.map { .string($0.rawValue) }),
                         ("score", result.score.map(JSON.number)), ("name_score", result.nameScore.map(JSON.number)),
                         ("place_score", result.placeScore.map(JSON.number))])
            })),
        ])
    }
}
