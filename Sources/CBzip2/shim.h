// The system libbz2, for bzip2-compressed OSM XML (.osm.bz2, as Geofabrik and planet mirrors serve it).
#include <bzlib.h>
