-- Bounding box of every place (id = place.id). 32-bit floats rounded outwards:
-- a filter only; exact positions are place.lat / place.lon and place_geometry.
CREATE VIRTUAL TABLE place_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);

-- Bounding boxes of the administrative and postal areas (id = area.id; the polygon is the
-- place_geometry of area.place_id), for point-in-polygon lookups.
CREATE VIRTUAL TABLE area_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);
