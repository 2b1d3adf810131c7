package rawjson

// Skip is what a WalkObject or WalkArray callback returns to have the
// value it was shown skipped for it.
const Skip = -2

// SkipAt returns the index just past the value starting at b[i] (no
// leading whitespace) nested depth levels deep, or -1 when the text is not
// a valid value or nests past the depth limit. A WalkObject or WalkArray
// callback uses it with the depth it was given.
func SkipAt(b []byte, i, depth int) int { return skipValue(b, i, depth) }

// WalkObject walks the object starting at b[i] once, reading members as
// it goes: member gets each member's raw key (between the quotes, still
// escaped), the text b, the index where the value starts and the value's
// depth, and returns the index just past the value (having read it, with
// SkipAt, WalkObject or WalkArray at that depth) or Skip. It returns the
// index just past the object, or -1 when b[i] does not start a valid
// object or a callback returned -1; the callbacks made before then stand.
// depth is the object's own (0 for a top-level value): the depth limit
// applies as it does in SkipValue, so a walk fails exactly where skipping
// the same value would.
func WalkObject(b []byte, i, depth int, member func(rawKey, b []byte, v, depth int) int) int {
	if i >= len(b) || b[i] != '{' || depth > maxDepth {
		return -1
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for i < len(b) {
		if b[i] != '"' {
			return -1
		}
		end := skipString(b, i)
		if end < 0 {
			return -1
		}
		key := b[i+1 : end-1]
		i = SkipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = SkipWS(b, i+1)
		vend := member(key, b, i, depth+1)
		if vend == Skip {
			vend = skipValue(b, i, depth+1)
		}
		if vend < 0 {
			return -1
		}
		i = SkipWS(b, vend)
		if i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipWS(b, i+1)
	}
	return -1
}

// WalkArray is WalkObject for arrays: elem gets the text, the index where
// each element starts and its depth, and returns the index just past it
// or Skip.
func WalkArray(b []byte, i, depth int, elem func(b []byte, v, depth int) int) int {
	if i >= len(b) || b[i] != '[' || depth > maxDepth {
		return -1
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for i < len(b) {
		end := elem(b, i, depth+1)
		if end == Skip {
			end = skipValue(b, i, depth+1)
		}
		if end < 0 {
			return -1
		}
		i = SkipWS(b, end)
		if i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipWS(b, i+1)
	}
	return -1
}
