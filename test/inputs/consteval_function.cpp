// consteval functions only run at compile time: skipped.
consteval int header_bytes(int fields)
{
    return 16 + 8 * fields;
}

int record_bytes(int payload)
{
    return header_bytes(3) + payload;
}
