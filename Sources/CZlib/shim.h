// The system zlib, for the zlib-compressed blobs inside OSM PBF files and gzip-compressed inputs.
#include <zlib.h>
