// Whether this test binary was built with AddressSanitizer (the asan preset), for the few
// checks whose expected numbers ASan's own memory use changes.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define RIDGELINE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIDGELINE_UNDER_ASAN 1
#endif
#endif
